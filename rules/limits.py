"""Every size, depth and count limit the engine enforces on untrusted schema input."""

# A schema file larger than this is refused before parsing (real contracts are far smaller;
# the 10,000-field benchmark schemas are under 1 MiB).
MAX_SCHEMA_BYTES = 2 * 1024 * 1024

# JSON nesting (objects and arrays) deeper than this is refused before json.loads, which would
# otherwise hit Python's recursion limit near 1,000 levels.
MAX_JSON_DEPTH = 128

# Named-type and $ref resolution depth when walking schemas side by side (recursive types stop
# at the first revisit, this bounds pathological but acyclic chains).
MAX_WALK_DEPTH = 256

# protoc diagnostics kept for an error message; the rest are counted, not shown.
MAX_PROTOC_ERRORS = 20

# Seconds a protoc compilation may take before it is abandoned.
PROTOC_TIMEOUT_SECONDS = 20

# Files one protobuf compilation may pull in through imports.
MAX_PROTO_FILES = 500

# Findings one comparison may return; the rest are summarised by one finding.
MAX_FINDINGS = 2000

# JSON Schema: files of a version's schema set parsed while looking for an `$id` (an unknown
# URL may name none of them; each file named by path is parsed on its own).
MAX_SET_DOCUMENTS = 200

# JSON Schema: alternatives one schema may expand to when anyOf/oneOf/allOf are multiplied out.
MAX_JSONSCHEMA_ALTERNATIVES = 256

# protoc's address space (RLIMIT_AS, the Python interpreter hosting it included) and the largest
# file it may write (its descriptor set; a 2 MiB schema with source info stays far below).
PROTOC_MEMORY_BYTES = 1024 * 1024 * 1024
PROTOC_OUTPUT_BYTES = 256 * 1024 * 1024

# Wall-clock seconds one file's review may take in a budgeted worker (rules.budget) before the
# worker is killed and the file reported as not reviewed; the App reads SCHEMA_REVIEW_FILE_BUDGET.
FILE_BUDGET_SECONDS = 20.0

# A budgeted worker's address space (RLIMIT_AS): a hostile schema that tries to exhaust memory
# fails the one file instead of the machine.
FILE_BUDGET_MEMORY_BYTES = 2 * 1024 * 1024 * 1024

# The largest answer a worker may send back (findings of a 2 MiB schema stay far below).
MAX_ANSWER_BYTES = 256 * 1024 * 1024

# Counterexample search (rules.examples, `check --examples`): CPU seconds of the searching thread
# one finding may take, and all findings of one comparison together (CPU, not wall-clock: the
# same example is found on a busy machine as on an idle one; the file's own wall-clock budget
# still bounds the whole), and candidate records tried per finding. None of these changes a
# verdict: a search cut short only leaves "example": null.
EXAMPLE_SECONDS_PER_FINDING = 1.0
EXAMPLE_SECONDS_PER_CHECK = 5.0
EXAMPLE_CANDIDATES = 64
# Characters of an example's payload as JSON; a larger record is not kept as an example.
EXAMPLE_PAYLOAD_CHARS = 20_000
# Characters of a runtime's error message an example keeps.
EXAMPLE_ERROR_CHARS = 300
