"""Fill empty msgstr entries of a catalog from a JSON mapping: python scripts/po_fill.py LANG FILE.json

The mapping is {msgid: msgstr}. For a plural entry the key is the singular msgid and the value
is a list with one string per plural form of the language (Czech: 3).
"""

import json
import sys

from babel.messages.pofile import read_po, write_po

language, mapping_file = sys.argv[1], sys.argv[2]
mapping = json.load(open(mapping_file, encoding="utf-8"))
path = f"companion/translations/{language}/LC_MESSAGES/messages.po"
with open(path, "rb") as handle:
    catalog = read_po(handle)


def empty(string) -> bool:
    return not any(string) if isinstance(string, (list, tuple)) else not string


filled = 0
for message in catalog:
    plural = not isinstance(message.id, str)
    key = message.id[0] if plural else message.id
    if key not in mapping or not empty(message.string):
        continue
    value = mapping[key]
    if plural:
        forms = [value] if isinstance(value, str) else list(value)
        if len(forms) != catalog.num_plurals:
            sys.exit(f"{key!r}: {len(forms)} plural forms given, {catalog.num_plurals} needed")
        message.string = tuple(forms)
    else:
        if not isinstance(value, str):
            sys.exit(f"{key!r} is not a plural entry: give one string")
        message.string = value
    filled += 1
with open(path, "wb") as handle:
    write_po(handle, catalog, width=100, no_location=True, sort_output=True)
print(f"{language}: filled {filled}")
