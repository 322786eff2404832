"""ReportLab generators for score pads, play aids and card sheets (arrives with the print issue).

It may import ``companion.rules`` data and the QR helper, never the web layer (design.md §1).
"""
