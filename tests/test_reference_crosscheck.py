"""Every version's facts against the public card database in ../shared/reference.

Skipped cleanly where that folder is absent (the tool never reads it at run time).
Known, deliberate differences are listed in FIXES with the reason.
"""

from __future__ import annotations

from collections import defaultdict

from mythos_cli.catalog import name_key

# printing id → why our catalog differs from the reference there
FIXES = {
    "KS-104-MV": "an extra 'Jutsu' keyword on this one alternate art only; the base printing KS-104-R, KS-104-RA "
    "and KS-104_2-MV have none (one version plays as one card: the base printing's keywords)",
}
FOLDED = {"SS-998-L": "SS-144", "SS-999-L": "SS-141"}


def test_every_printing_is_in_the_catalog_and_back(catalog, reference):
    ours = {p for c in catalog for p in c.printings}
    assert ours == set(reference)


def test_facts_match_reference(catalog, reference):
    problems = []
    for pid, ref in reference.items():
        card = catalog.by_printing[pid]
        expected_version = FOLDED.get(pid) or (
            f"{ref['set']}-{int(ref['number']):03d}" + ("-MMS" if ref["card_type"] == "mission" else "")
        )
        if card.id != expected_version:
            problems.append(f"{pid}: version {card.id} != {expected_version}")
        if card.type != ref["card_type"]:
            problems.append(f"{pid}: type")
        ref_name = ref["title_en"] if ref["card_type"] == "mission" else ref["name_en"]
        if name_key(card.name) != name_key(ref_name):
            problems.append(f"{pid}: name {card.name!r} vs {ref_name!r}")
        # Alternate arts carry their own quote as a title; the version's title is the base printing's.
        if card.type == "character" and pid == card.printings[0] and card.title != ref["title_en"].strip():
            problems.append(f"{pid}: title {card.title!r} vs {ref['title_en']!r}")
        if card.type == "mission":
            if card.points != ref["basePoints"]:
                problems.append(f"{pid}: points")
        else:
            if (card.cost, card.power, card.group) != (ref["chakra"], ref["power"], ref["group"]):
                problems.append(f"{pid}: cost/power/group")
            if list(card.keywords) != ref["keywords"] and pid not in FIXES:
                problems.append(f"{pid}: keywords {card.keywords} vs {ref['keywords']}")
        if card.attach_to != ref.get("attach_to"):
            problems.append(f"{pid}: attach_to")
        timings = [e.timing for e in card.effects]
        if timings != [e["type"].lower() for e in ref["effects"]]:
            problems.append(f"{pid}: effect timings {timings}")
        for ours, theirs in zip(card.effects, ref["effects"]):
            d = theirs["description"]
            if ours.kind == "modifier":  # "MAIN effect: instead …" lines quote icons of other lines
                continue
            if "[↯]" in d and ours.kind != "instant":
                problems.append(f"{pid}: kind of {ours.timing} should be instant")
            if "[⧗]" in d and ours.kind != "continuous":
                problems.append(f"{pid}: kind of {ours.timing} should be continuous")
    assert not problems, "\n".join(problems)


def test_every_listed_difference_is_real(catalog, reference):
    """A printing in FIXES differs from the catalog's version where FIXES says; one that agrees is a
    stale note (KS-104_2-MV was listed, though only KS-104-MV carries the extra keyword)."""
    stale = [pid for pid in FIXES if list(catalog.by_printing[pid].keywords) == reference[pid]["keywords"]]
    assert not stale, f"FIXES lists printings whose facts agree with the reference: {stale}"


def test_rarities(catalog, reference):
    for pid, ref in reference.items():
        assert pid.endswith("-" + ref["rarity"])
    by_version = defaultdict(set)
    for pid in reference:
        by_version[catalog.by_printing[pid].id].add(pid)
    for vid, pids in by_version.items():
        assert set(catalog.by_id[vid].printings) == pids
