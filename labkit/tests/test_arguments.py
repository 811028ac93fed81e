"""The shared argparse types of labkit/ground/arguments.py: what they accept and the message of what they refuse."""
import argparse

import pytest

from labkit.ground.arguments import decimal_number, percentage, positive_number, positive_seconds, whole_number


def refusal(parse, text):
    with pytest.raises(argparse.ArgumentTypeError) as caught:
        parse(text)
    return str(caught.value)


def test_whole_number_checks_both_bounds_and_names_the_option():
    parse = whole_number(1, 3600, "--idle", unit="whole seconds")
    assert parse("1") == 1 and parse("3_600") == 3600
    assert refusal(parse, "0") == "--idle must be in 1..3600, was 0"
    assert refusal(parse, "3601") == "--idle must be in 1..3600, was 3601"
    assert refusal(parse, "1.5") == "--idle must be whole seconds, was '1.5'"


def test_whole_number_without_upper_bound():
    parse = whole_number(0)
    assert parse("0") == 0 and parse("10_000_000") == 10_000_000
    assert refusal(parse, "-1") == "must be >= 0, was -1"
    assert refusal(parse, "many") == "must be a whole number, was 'many'"


def test_decimal_number_refuses_out_of_range_and_nan():
    parse = decimal_number(0.5, 600)
    assert parse("0.5") == 0.5
    assert refusal(parse, "0.1") == "must be in 0.5..600, was 0.1"
    assert refusal(parse, "nan").startswith("must be in 0.5..600")
    assert refusal(parse, "ten") == "must be a number, was 'ten'"


def test_positive_seconds_takes_a_trailing_s_and_refuses_zero():
    assert positive_seconds("2.5s") == 2.5
    assert refusal(positive_seconds, "0") == "seconds must be in (0, 3600], was '0'"
    assert refusal(positive_seconds, "soon") == "expected seconds (e.g. 15 or 2.5), was 'soon'"


def test_positive_number_refuses_zero_and_infinity():
    parse = positive_number("--factor")
    assert parse("0.5") == 0.5 and parse("2") == 2.0
    assert refusal(parse, "0") == "--factor must be above 0, was 0"
    assert refusal(parse, "inf") == "--factor must be above 0, was inf"
    assert refusal(parse, "twice") == "--factor must be a number, was 'twice'"


def test_percentage_is_a_fraction_and_names_the_option():
    parse = percentage(0.5, 50, "--resolution")
    assert parse("5%") == pytest.approx(0.05) and parse(" 50 ") == pytest.approx(0.5)
    assert refusal(parse, "0.1%") == "--resolution must be in 0.5..50 %, was 0.1"
    assert refusal(parse, "nan").startswith("--resolution must be in 0.5..50 %")
    assert refusal(parse, "five") == "--resolution takes a percentage (e.g. 5%), was 'five'"
