"""The config's JSON Schema (bot/schema-review.schema.json) applied to the YAML tree, errors at their line.

The schema is the contract editors and SchemaStore read. Here it checks a file's shape first,
and its findings are told in the parser's words (`file:line: key: problem`). Spellings are as
forgiving as the parser: enum values match whatever their case and surrounding spaces.
"""
from __future__ import annotations

import functools
import json
from pathlib import Path

from jsonschema import Draft7Validator, ValidationError, validators

from bot.config.bot_rules import BOT_RULES

from bot.config.configfile import (EXPECTED, EXPECTED_ONE_OF, KINDS, MISSING_KEY, OUT_OF_RANGE, UNKNOWN_KEY,
                         ConfigError, Node, did_you_mean)

# Its public path (users' editors point `$schema` at it), outside this package.
SCHEMA_FILE = Path(__file__).resolve().parent.parent / "schema-review.schema.json"
NON_EMPTY = "non-empty text"
TYPE_WORDS = {"object": KINDS[dict], "array": KINDS[list], "string": KINDS[str], "boolean": KINDS[bool],
              "integer": "a whole number"}


def _lenient_enum(validator, enums, instance, schema):
    if isinstance(instance, str) and {instance.strip().lower(), instance.strip().upper()} & {
            e for e in enums if isinstance(e, str)}:
        return
    yield from Draft7Validator.VALIDATORS["enum"](validator, enums, instance, schema)


Lenient = validators.extend(Draft7Validator, {"enum": _lenient_enum})


@functools.lru_cache(maxsize=1)
def schema() -> dict:
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=4)
def _validator(rule_ids: frozenset[str] | None):
    """The rule ids the engine has today win over the file's list (a new rule never waits for it)."""
    if rule_ids is None:
        return Lenient(schema())
    return Lenient(with_rule_ids(schema(), rule_ids))


def with_rule_ids(document: dict, rule_ids) -> dict:
    rules = {**document["properties"]["rules"], "propertyNames": {"enum": sorted(rule_ids)}}
    return {**document, "properties": {**document["properties"], "rules": rules}}


def check(root: Node, *, special: dict[tuple[str, ...], str] | None = None,
          rule_ids: frozenset[str] | None = None) -> None:
    """Raise the ConfigError of the file's first (topmost) finding against the schema.

    `special` words a key's finding the parser's own way, by the key's path (`[]`: any list
    position, `*`: any key of a mapping), e.g. {("version",): "expected 1, the only config version"}.
    """
    found = list(_validator(rule_ids).iter_errors(_plain(root)))
    if found:
        raise _error(root, min(found, key=lambda error: _parser_order(root, error)), special or {})


def _parser_order(root: Node, error: ValidationError) -> tuple:
    """The parser's order: unknown top-level keys, then key by key as the schema lists them, each
    from the top of the file down; on one line an unknown key before a missing one."""
    path = error.absolute_path
    order = list(schema()["properties"])
    top = order.index(path[0]) if path and path[0] in order else -1
    return (top, _at(root, path).line, len(path), error.validator != "additionalProperties")


def _plain(node: Node):
    if isinstance(node.value, dict):
        return {key: _plain(child) for key, child in node.value.items()}
    if isinstance(node.value, list):
        return [_plain(child) for child in node.value]
    return node.value


def _at(root: Node, path) -> Node:
    node = root
    for step in path:
        node = node.value[step]
    return node


def _error(root: Node, error: ValidationError, special: dict) -> ConfigError:
    node = _at(root, error.absolute_path)
    kind, rule = error.validator, error.schema
    if kind == "oneOf":  # a glob or a list of globs: tell the branch the value was meant for
        meant = next((i for i, option in enumerate(rule["oneOf"]) if _shaped(node.value, option)), None)
        branch = next((e for e in error.context if e.relative_schema_path[0] == meant), None)
        return _error(root, branch, special) if branch else node.error(EXPECTED.format(kind=KINDS[list]))
    if "propertyNames" in error.absolute_schema_path:  # a key outside a closed list of names
        name = error.instance
        wording = special.get((*_names(error.absolute_path), "*"), UNKNOWN_KEY)
        return node.value[name].error(wording.format(hint=did_you_mean(name, error.validator_value), allowed=""))
    if kind == "additionalProperties":
        allowed = list(rule.get("properties", {}))
        name = next(key for key in node.value if key not in allowed)
        return node.value[name].error(UNKNOWN_KEY.format(hint=did_you_mean(name, allowed), allowed=", ".join(allowed)))
    names = _names(error.absolute_path)
    if isinstance(error.instance, str) and not error.instance.strip():
        return node.error(EXPECTED.format(kind=NON_EMPTY))
    if kind in ("enum", "pattern", "minItems") and names in special:
        return node.error(special[names])
    if kind == "required":
        return node.error(MISSING_KEY.format(name=next(n for n in rule["required"] if n not in node.value)))
    if kind == "type":
        return node.error(EXPECTED.format(kind=TYPE_WORDS.get(rule["type"], rule["type"])))
    if kind == "enum":
        choices = dict.fromkeys("off" if choice is False else str(choice) for choice in rule["enum"])
        return node.error(EXPECTED_ONE_OF.format(choices=", ".join(choices)))
    if kind in ("minimum", "maximum"):
        return node.error(OUT_OF_RANGE.format(low=rule.get("minimum", 0), high=rule.get("maximum", 10**9)))
    if kind in ("minLength", "pattern"):
        return node.error(EXPECTED.format(kind=NON_EMPTY))
    return node.error(error.message)


def _shaped(value, option: dict) -> bool:
    """Whether `value` has the JSON type of a oneOf option (a `$ref`: the text definition)."""
    wanted = option.get("type", "string")
    return isinstance(value, list) if wanted == "array" else isinstance(value, str)


def _names(path) -> tuple[str, ...]:
    """The path with list positions as `[]`: ("protobuf", "import_roots", "[]")."""
    return tuple("[]" if isinstance(step, int) else str(step) for step in path)


def main() -> None:
    """`python -m bot.config.configschema`: write today's rule ids into the shipped schema (for editors)."""
    import rules
    SCHEMA_FILE.write_text(json.dumps(with_rule_ids(schema(), set(rules.all_specs()) | BOT_RULES), indent=2) + "\n",
                           encoding="utf-8")


if __name__ == "__main__":
    main()
