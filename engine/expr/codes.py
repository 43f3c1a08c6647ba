"""The diagnostic codes of the expression layer (E3xx). Documented in docs/diagnostics.md."""

from engine.diagnostics import define

SYNTAX_ERROR = define("E301", "syntax-error", "the expression does not parse")
UNKNOWN_NAME = define("E302", "unknown-name", "a name that is not declared where the expression is used")
UNKNOWN_FIELD = define("E303", "unknown-field", "a field the record does not have")
WRONG_ARGUMENT_COUNT = define("E304", "wrong-argument-count", "a function called with too many or too few arguments")
TYPE_MISMATCH = define("E305", "type-mismatch", "a value of the wrong type, e.g. a boolean where a number is needed")
DIVISION_BY_ZERO = define("E306", "division-by-zero", "division or modulo by a constant zero")
TOO_COMPLEX = define("E307", "too-complex", "an expression too long or too deeply nested")
UNKNOWN_FUNCTION = define("E308", "unknown-function", "a call to a function the library does not have")
POWER_TOO_LARGE = define("E309", "power-too-large", "`**` with a constant exponent that is negative or too large")
DEFINITION_CYCLE = define("E310", "definition-cycle", "definitions that refer to each other in a circle")
TRUE_DIVISION = define("E311", "true-division", "`/` used; arithmetic is on integers, write `//`")
MISPLACED_COMPREHENSION = define("E312", "misplaced-comprehension", "a `for` form where no list is taken")
ALWAYS_FAILS = define("E313", "always-fails", "a constant part of the expression always fails (e.g. an index out of range)")
NUMBER_TOO_LARGE = define("E314", "number-too-large", "an integer written, or computed from constants, over 1024 bits (about 308 digits)")
TOO_COSTLY = define("E315", "too-costly", "nested `for` forms that go through too many items (at lint time when the sizes are known, else at run time)")
