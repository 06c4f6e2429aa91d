"""The hostile corpus (requests.json) as each front end meets it: the requests with the defaults
filled in, each front end's verdict, and the checks every front end shares."""
import json
import math
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_FOR = {"dask": "python", "serve": "cli"}
# How each front end names an option in a message (the core's OptionNames, validate.hpp).
SPELLED = {"cli": "--{} ", "python": "{}=", "dask": "{}=", "serve": "'{}' "}


def _load():
    with open(os.path.join(HERE, "requests.json"), encoding="utf-8") as f:
        return json.load(f)


CORPUS = _load()


def value(v):
    """A corpus value as Python data: 'nan', 'inf', '-inf' as floats, {'latin1': s} as that text."""
    if isinstance(v, str) and v in ("nan", "inf", "-inf"):
        return float(v)
    if isinstance(v, dict) and set(v) == {"latin1"}:
        return v["latin1"]
    if isinstance(v, list):
        return [value(x) for x in v]
    return v


def expectation(entry, front):
    """The entry's verdict for `front`: a dict with 'class' (and 'words'), or None with the reason."""
    expect = entry["expect"]
    e = expect.get(front, expect.get(DEFAULT_FOR.get(front, ""), None))
    if e is None:
        return None, f"the corpus gives no verdict for {front}"
    if isinstance(e, str):
        return None, e
    same = entry.get("same")
    if same and e["class"] == "invalid":  # not SciPy's own verdicts (overflow, type, ...)
        # The one rule (validate.hpp): every front end that refuses the request says the same words
        # after the option, named its own way; a front end that restated the rule would differ.
        e = dict(e, same=(SPELLED[front].format(same["option"]), same["text"]))
    return e, None


def cases(front):
    """pytest parameters: (name, request with defaults, verdict) for every entry `front` can express."""
    out = []
    for entry in CORPUS["requests"]:
        e, why = expectation(entry, front)
        request = dict(CORPUS["defaults"])
        request.update(entry["request"])
        marks = [] if e is not None else [pytest.mark.skip(reason=f"n/a for {front}: {why}")]
        out.append(pytest.param(entry["name"], request, e, id=entry["name"], marks=marks))
    return out


def check_message(message, expect):
    """One line, naming what the corpus says it must."""
    assert message and "\n" not in message.strip(), f"not one line: {message!r}"
    assert "incompatible function arguments" not in message, message
    low = message.lower()
    for w in expect.get("words", []):
        assert w.lower() in low, f"{message!r} does not name {w!r}"
    if "same" in expect:
        option, text = expect["same"]
        assert option in message, f"{message!r} does not name the option as {option!r}"
        assert text in message[message.index(option):], f"{message!r}: not the core's words {text!r} after {option!r}"


def is_number_text(v):
    return isinstance(v, float) and (math.isnan(v) or math.isinf(v))
