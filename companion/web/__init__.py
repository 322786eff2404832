"""Server-rendered pages for the phone (design.md §1): thin views, forms, templates."""
