"""Rule sets: presets, combinations, names that parse back, and every refusal."""

from __future__ import annotations

import itertools

import pytest
from clitools import assert_bad_input, run
from hypothesis import given
from hypothesis import strategies as st

from kcsolve.common.deal import deal
from kcsolve.patience.rules import (
    AXES,
    PRESETS,
    STANDARD,
    Courts,
    Goal,
    InvalidRulesError,
    Removal,
    Rules,
    Sets,
    parse_rules,
    rules_name,
)
from kcsolve.patience.solve.route import solve


def rules_error(text: str) -> str:
    with pytest.raises(InvalidRulesError) as info:
        parse_rules(text)
    return str(info.value)


def test_standard_is_the_first_option_of_each_axis() -> None:
    assert STANDARD == Rules() == Rules(Removal.FORCED, Sets.PAIRS, Courts.FIXED, Goal.COURTS)
    assert parse_rules("standard") == STANDARD


@pytest.mark.parametrize(
    "text, expected",
    [
        ("standard", Rules()),
        ("deplete", Rules(goal=Goal.DEPLETE)),
        ("swap", Rules(courts=Courts.SWAP)),
        ("deplete+swap", Rules(courts=Courts.SWAP, goal=Goal.DEPLETE)),
        ("swap+deplete", Rules(courts=Courts.SWAP, goal=Goal.DEPLETE)),
        ("swap+goal=deplete", Rules(courts=Courts.SWAP, goal=Goal.DEPLETE)),
        ("goal=deplete+courts=swap", Rules(courts=Courts.SWAP, goal=Goal.DEPLETE)),
        ("standard+swap", Rules(courts=Courts.SWAP)),
        ("deplete+goal=deplete", Rules(goal=Goal.DEPLETE)),
        ("swap+swap", Rules(courts=Courts.SWAP)),
        ("courts=fixed+goal=courts", Rules()),
        ("removal=forced+sets=pairs", Rules()),
        (" Deplete + SWAP ", Rules(courts=Courts.SWAP, goal=Goal.DEPLETE)),
    ],
)
def test_presets_and_combinations(text: str, expected: Rules) -> None:
    assert parse_rules(text) == expected


@pytest.mark.parametrize(
    "rules, name",
    [
        (Rules(), "standard"),
        (Rules(goal=Goal.DEPLETE), "deplete"),
        (Rules(courts=Courts.SWAP), "swap"),
        (Rules(courts=Courts.SWAP, goal=Goal.DEPLETE), "deplete+swap"),
    ],
)
def test_str_of_supported_rules(rules: Rules, name: str) -> None:
    assert str(rules) == rules_name(rules) == name
    assert parse_rules(str(rules)) == rules


ALL_RULES = [Rules(*combo) for combo in itertools.product(Removal, Sets, Courts, Goal)]


def test_every_combination_has_a_name_that_parses_back() -> None:
    """All 36 combinations of the four axes round-trip through their name."""
    assert len(ALL_RULES) == 36
    names = set()
    for rules in ALL_RULES:
        name = str(rules)
        names.add(name)
        assert parse_rules(name) == rules, name
        for token in name.split("+"):
            assert token in PRESETS or "=" in token
    assert len(names) == 36


@pytest.mark.parametrize(
    "rules, name",
    [
        (Rules(removal=Removal.OPTIONAL, goal=Goal.CLEAR), "camelot"),
        (Rules(removal=Removal.OPTIONAL, sets=Sets.GROUPS), "optional+groups"),
        (Rules(courts=Courts.ROYALS), "royals"),
        (Rules(goal=Goal.CLEAR), "goal=clear"),
        (Rules(removal=Removal.OPTIONAL, courts=Courts.SWAP, goal=Goal.CLEAR), "camelot+swap"),
    ],
)
def test_names_of_unsupported_rules_are_the_shortest_presets(rules: Rules, name: str) -> None:
    assert str(rules) == name


@pytest.mark.parametrize(
    "text, message",
    [
        ("deplete+goal=courts", "rules 'deplete+goal=courts' set goal twice: 'deplete' and 'goal=courts' disagree"),
        ("swap+courts=fixed", "rules 'swap+courts=fixed' set courts twice: 'swap' and 'courts=fixed' disagree"),
        ("swap+royals", "rules 'swap+royals' set courts twice: 'swap' and 'royals' disagree"),
        ("goal=courts+deplete", "rules 'goal=courts+deplete' set goal twice: 'goal=courts' and 'deplete' disagree"),
        (
            "deplete+swap+goal=courts",
            "rules 'deplete+swap+goal=courts' set goal twice: 'deplete' and 'goal=courts' disagree",
        ),
    ],
)
def test_conflicting_combinations(text: str, message: str) -> None:
    assert rules_error(text) == message


@pytest.mark.parametrize("text", ["bogus", "standrd", "swap+bogus", "deplete swap"])
def test_unknown_preset(text: str) -> None:
    bad = text.split("+")[-1]
    assert rules_error(text) == f"unknown rule preset {bad!r} (kcsolve rules lists them)"


@pytest.mark.parametrize(
    "text, message",
    [
        ("colour=red", "unknown rule axis 'colour' (axes: removal, sets, courts, goal)"),
        ("=deplete", "unknown rule axis '' (axes: removal, sets, courts, goal)"),
        ("goal=bogus", "unknown option 'bogus' for goal (options: courts, deplete, clear)"),
        ("goal=", "unknown option '' for goal (options: courts, deplete, clear)"),
        ("courts=queens", "unknown option 'queens' for courts (options: fixed, swap, royals)"),
        ("removal=never", "unknown option 'never' for removal (options: forced, optional)"),
        ("sets=triples", "unknown option 'triples' for sets (options: pairs, groups)"),
        ("", "empty preset name in rules ''"),
        ("swap+", "empty preset name in rules 'swap+'"),
        ("+swap", "empty preset name in rules '+swap'"),
    ],
)
def test_unknown_axis_or_option(text: str, message: str) -> None:
    assert rules_error(text) == message


@pytest.mark.parametrize(
    "text, expected",
    [
        ("optional", Rules(removal=Removal.OPTIONAL)),
        ("groups", Rules(sets=Sets.GROUPS)),
        ("royals", Rules(courts=Courts.ROYALS)),
        ("camelot", Rules(removal=Removal.OPTIONAL, goal=Goal.CLEAR)),
        ("goal=clear", Rules(goal=Goal.CLEAR)),
        ("deplete+optional", Rules(removal=Removal.OPTIONAL, goal=Goal.DEPLETE)),
        ("swap+groups", Rules(sets=Sets.GROUPS, courts=Courts.SWAP)),
        ("optional+groups", Rules(removal=Removal.OPTIONAL, sets=Sets.GROUPS)),
        ("camelot+groups+royals", Rules(Removal.OPTIONAL, Sets.GROUPS, Courts.ROYALS, Goal.CLEAR)),
    ],
)
def test_every_option_is_available(text: str, expected: Rules) -> None:
    assert parse_rules(text) == expected
    assert parse_rules(str(expected)) == expected


def test_rules_errors_are_value_errors() -> None:
    assert issubclass(InvalidRulesError, ValueError)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"removal": "bogus"}, "Rules(removal=...) takes a Removal such as Removal.OPTIONAL, not 'bogus'"),
        ({"sets": 5}, "Rules(sets=...) takes a Sets such as Sets.GROUPS, not 5"),
        ({"courts": Goal.CLEAR}, "Rules(courts=...) takes a Courts such as Courts.ROYALS, not <Goal.CLEAR: 'clear'>"),
        ({"goal": "x" * 100}, f"Rules(goal=...) takes a Goal such as Goal.CLEAR, not '{'x' * 36}..."),
    ],
)
def test_rules_check_every_field_when_made(fields: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidRulesError) as info:
        Rules(**fields)  # type: ignore[arg-type]
    assert str(info.value) == message


def test_rules_refused_when_made_never_reach_the_solver() -> None:
    deck = [str(card) for card in deal(0)]
    for fields in ({"removal": "bogus"}, {"sets": 5}):
        with pytest.raises(InvalidRulesError):
            solve(deck, Rules(**fields))  # type: ignore[arg-type]


ANY_OPTION = st.sampled_from([option for choices in AXES.values() for option in choices])


@given(
    axis=st.sampled_from(list(AXES)),
    value=ANY_OPTION | st.text(max_size=10) | st.integers() | st.none() | st.booleans(),
)
def test_a_field_is_taken_exactly_when_it_is_an_option_of_its_axis(axis: str, value: object) -> None:
    if isinstance(value, AXES[axis]):
        assert getattr(Rules(**{axis: value}), axis) is value  # type: ignore[arg-type]
    else:
        with pytest.raises(InvalidRulesError):
            Rules(**{axis: value})  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["9" * 5000, "swap+" + "x" * 5000, "goal=" + "9" * 5000])
def test_a_long_rule_text_is_refused_in_one_short_line(text: str) -> None:
    result = run("solve", "--seed", "1", "--rules", text)
    assert_bad_input(result, None)
    assert len(result.stderr) <= 450


@given(st.text(max_size=60) | st.integers() | st.none())
def test_any_rule_text_is_read_or_refused_with_the_package_error(text: object) -> None:
    try:
        rules = parse_rules(text)  # type: ignore[arg-type]
    except InvalidRulesError as refused:  # the text quoted (escaped, at most three times) and a fixed sentence
        assert len(str(refused)) < 200 + 3 * len(repr(text))
    else:
        assert parse_rules(str(rules)) == rules
