#!/usr/bin/env bash
# Refresh the translation catalogs after changing user-facing strings:
#   scripts/i18n.sh          extract, merge into cs/hu, compile
# Babel keeps existing translations; translate the new empty msgstr entries, then run again.
set -euo pipefail
cd "$(dirname "$0")/.."
pybabel extract -F babel.cfg -k N_ -k _ -k gettext -k ngettext:1,2 -k N_plural:1,2 --no-location --sort-output \
  --project Scribe --copyright-holder Scribe -o companion/translations/messages.pot . >/dev/null
pybabel update -i companion/translations/messages.pot -d companion/translations --no-fuzzy-matching \
  --ignore-obsolete >/dev/null
pybabel compile -d companion/translations --statistics
