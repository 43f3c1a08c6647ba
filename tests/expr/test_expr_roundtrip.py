"""Property: printing any AST and parsing the text again gives the same AST."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.expr import ast as A
from engine.expr.parser import parse

KEYWORDS = {"if", "then", "else", "and", "or", "not", "in", "for", "true", "false"}
names = st.from_regex(r"[a-z_][a-z0-9_]{0,5}", fullmatch=True).filter(lambda n: n not in KEYWORDS)
BINARY_OPS = ["+", "-", "*", "//", "%", "/", "**", "==", "!=", "<", "<=", ">", ">=",
              "in", "not in", "and", "or"]

leaves = st.one_of(
    st.integers(min_value=0, max_value=10**30).map(A.Int),
    st.booleans().map(A.Bool),
    st.text(max_size=6).map(A.Str),
    names.map(A.Name),
)


def extend(children):
    comprehension = st.builds(
        A.Comprehension, children, names, children, st.none() | children)
    return st.one_of(
        st.builds(A.Attr, children, names),
        st.builds(A.Index, children, children),
        st.lists(children, max_size=3).map(lambda items: A.ListExpr(tuple(items))),
        st.builds(A.Unary, st.sampled_from(["-", "not"]), children),
        st.builds(A.Binary, st.sampled_from(BINARY_OPS), children, children),
        st.builds(A.Cond, children, children, children),
        st.builds(A.Call, names, st.lists(children, max_size=3).map(tuple)),
        st.builds(A.Call, names, comprehension.map(lambda c: (c,))),
    )


trees = st.recursive(leaves, extend, max_leaves=25)


@settings(max_examples=200, deadline=None)
@given(trees)
def test_print_then_parse_is_identity(tree):
    text = A.to_source(tree)
    again = parse(text)
    assert again == tree, text
    assert A.to_source(again) == text
