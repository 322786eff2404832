"""Ra's set-up (spec ra.md §3, §6.1 two players, §6.2 option flags): a fresh live game.

Pure (design.md §1): the sun groups were dealt at the table; the set-up only checks them.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..base import N_, RuleViolation
from ..referee import is_int
from . import printed
from .state import ALL_KINDS, HOLDABLE, Phase

RULE_OPTIONS: Mapping[str, bool] = {      # §6.2 flags the referee uses, with their defaults
    "two_player": False,
    "god_may_take_disaster": True,
    "fame_floor_zero": True,
    "epoch3_single_net": True,
}
# §6.2 display flags belong to the web layer; accepted (and ignored) here.
DISPLAY_OPTIONS = frozenset({"hide_fame_during_play", "show_bag_counts"})


def normalise_options(options: Mapping[str, Any] | None) -> dict[str, bool]:
    """The four rule flags of §6.2 with defaults filled in; each given one must be a boolean."""
    clean = dict(RULE_OPTIONS)
    for key, value in (options or {}).items():
        if key in RULE_OPTIONS or key in DISPLAY_OPTIONS:
            if not isinstance(value, bool):
                raise RuleViolation("ra.bad_option",
                                    N_("This must be true or false."),     # the field names it
                                    f"options.{key}", option=key)
            if key in RULE_OPTIONS:
                clean[key] = value
    return clean


def _check_sun_groups(count: int, sun_groups: Any) -> list[list[int]]:
    """§3 step 5: exactly this player count's groups (§2.3), each dealt once."""
    table = printed.SUN_GROUPS[count]
    wanted = sorted(tuple(sorted(group, reverse=True)) for group in table)
    problem = RuleViolation(
        "ra.bad_sun_groups",
        N_("With %(players)d players the sun groups are %(groups)s, one to each player."),
        "sun_groups", players=count,
        groups=", ".join("-".join(map(str, group)) for group in table))
    if not isinstance(sun_groups, (list, tuple)) or len(sun_groups) != count:
        raise problem
    dealt = []
    for group in sun_groups:
        if not isinstance(group, (list, tuple)) or not all(is_int(sun) for sun in group):
            raise problem
        dealt.append(sorted(group, reverse=True))
    if sorted(tuple(group) for group in dealt) != wanted:
        raise problem
    return dealt


def setup(options: Mapping[str, Any] | None, names: Sequence[str],
          sun_groups: Sequence[Sequence[int]]) -> dict[str, Any]:
    """A fresh game (§3): full bag, 10 fame each, the dealt suns face up, sun 1 in the centre."""
    opts = normalise_options(options)
    count = len(names)
    low = 2 if opts["two_player"] else 3   # §6.1: two players only with the 2008 rules
    if not low <= count <= 5:
        raise RuleViolation("ra.bad_player_count",
                            N_("Ra is played by %(low)d to %(high)d players, not %(count)d."),
                            low=low, high=5, count=count)
    suns_up = _check_sun_groups(count, sun_groups)
    first = max(range(count), key=lambda seat: suns_up[seat][0])   # §3 step 10
    return {
        "names": [str(name) for name in names],
        "options": opts,
        "ra_track_length": printed.RA_TRACK_LENGTH[count],
        "epoch": 1,
        "phase": Phase.TURN.value,
        "current": first,
        "bag": dict(printed.BOX),
        "track": [None] * printed.AUCTION_TRACK_LENGTH,
        "ra_count": 0,
        "removed": {kind: 0 for kind in ALL_KINDS},
        "centre": printed.STARTING_CENTRE_SUN,
        "suns_up": suns_up,
        "suns_down": [[] for _ in range(count)],
        "holdings": [{kind: 0 for kind in HOLDABLE} for _ in range(count)],
        "fame": [printed.STARTING_FAME] * count,
        "auction": None,
        "pending": [],
        "epochs": [],
        "epoch_ends": [],
    }
