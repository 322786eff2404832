"""Fill empty msgstr entries of a catalog from a JSON mapping: python scripts/po_fill.py LANG FILE.json"""

import json
import sys

from babel.messages.pofile import read_po, write_po

language, mapping_file = sys.argv[1], sys.argv[2]
mapping = json.load(open(mapping_file, encoding="utf-8"))
path = f"companion/translations/{language}/LC_MESSAGES/messages.po"
with open(path, "rb") as handle:
    catalog = read_po(handle)
filled = 0
for message in catalog:
    key = message.id if isinstance(message.id, str) else message.id[0]
    if key in mapping and not message.string:
        message.string = mapping[key]
        filled += 1
with open(path, "wb") as handle:
    write_po(handle, catalog, width=100, no_location=True, sort_output=True)
print(f"{language}: filled {filled}")
