"""YAML text to a tree of Nodes that know their key and line, with typed, checked accessors."""
from __future__ import annotations

import difflib
import enum
from dataclasses import dataclass
from typing import Iterable, TypeVar

import yaml

MAX_CONFIG_BYTES = 64 * 1024
# A 64 KB file holds far fewer nodes; aliases (`*a`) could otherwise expand exponentially.
MAX_NODES = 20_000
MAX_DEPTH = 32

TOO_LARGE = "file is {size:,} bytes, over the {limit:,}-byte limit for this file"
NOT_YAML = "not valid YAML: {problem}"
TOO_BIG = "too many values (aliases expand to over {limit:,}); write the values out"
TOO_DEEP = "nested more than {limit} levels deep"
DUPLICATE = "duplicate key"
UNKNOWN_KEY = "unknown key{hint}; expected one of {allowed}"
DID_YOU_MEAN = " (did you mean {word}?)"
UNSUPPORTED_TAG = "unsupported YAML tag {tag}"
YAML_TAG = "tag:yaml.org,2002:"
PLAIN_TAGS = frozenset(YAML_TAG + kind for kind in
                       ("map", "seq", "str", "int", "float", "bool", "null", "timestamp"))
MISSING_KEY = "missing key {name!r}"
EXPECTED = "expected {kind}"
EXPECTED_ONE_OF = "expected one of {choices}"
OUT_OF_RANGE = "expected a whole number from {low} to {high}"
KINDS = {dict: "a mapping of keys to values", list: "a list", str: "text", bool: "true or false"}

E = TypeVar("E", bound=enum.Enum)


class ConfigError(ValueError):
    """The config file cannot be used; str() names the file, line and key."""

    def __init__(self, key: str, line: int | None, problem: str, *, file: str = ""):
        super().__init__(problem)
        self.key, self.line, self.problem, self.file = key, line, problem, file

    def __str__(self) -> str:
        where = ":".join(str(part) for part in (self.file, self.line) if part)
        return ": ".join(part for part in (where, self.key, self.problem) if part)


@dataclass
class Node:
    key: str  # where it sits, as a reader would write it: `rules.PROTO_X`, `overrides[0].paths`
    line: int  # 1-based
    value: object  # dict[str, Node], list[Node] or a scalar
    file: str = ""

    def error(self, problem: str) -> ConfigError:
        return ConfigError(self.key, self.line, problem, file=self.file)

    def _expect(self, kind: type) -> object:
        # bool is an int in Python; a YAML `true` must not pass for a number or text.
        if not isinstance(self.value, kind) or (kind is int and isinstance(self.value, bool)):
            raise self.error(EXPECTED.format(kind=KINDS.get(kind, "a whole number")))
        return self.value

    def mapping(self, *, allowed: Iterable[str] | None = None,
                required: Iterable[str] = ()) -> dict[str, Node]:
        items: dict[str, Node] = self._expect(dict)  # type: ignore[assignment]
        allowed = list(allowed) if allowed is not None else None
        for name, child in items.items():
            if allowed is not None and name not in allowed:
                raise child.error(UNKNOWN_KEY.format(hint=did_you_mean(name, allowed),
                                                     allowed=", ".join(allowed)))
        for name in required:
            if name not in items:
                raise self.error(MISSING_KEY.format(name=name))
        return items

    def sequence(self) -> list[Node]:
        return self._expect(list)  # type: ignore[return-value]

    def string(self) -> str:
        text = self._expect(str)
        if not text.strip():
            raise self.error(EXPECTED.format(kind="non-empty text"))
        return text  # type: ignore[return-value]

    def boolean(self) -> bool:
        return self._expect(bool)  # type: ignore[return-value]

    def integer(self, *, low: int = 0, high: int = 10**9) -> int:
        number = self._expect(int)
        if not low <= number <= high:  # type: ignore[operator]
            raise self.error(OUT_OF_RANGE.format(low=low, high=high))
        return number  # type: ignore[return-value]

    def choice_of(self, choices: Iterable[str], *, falsy: str | None = None,
                  upper: bool = False) -> str:
        choices = [str(c) for c in choices]
        value = falsy if self.value is False and falsy else self.value
        if isinstance(value, str):
            wanted = value.strip().upper() if upper else value.strip().lower()
            if wanted in choices:
                return wanted
        raise self.error(EXPECTED_ONE_OF.format(choices=", ".join(choices)))

    def choice(self, kind: type[E]) -> E:
        return kind(self.choice_of([member.value for member in kind]))

    def globs(self) -> tuple[str, ...]:
        """A list of globs; a single glob may be written without the list."""
        if isinstance(self.value, str):
            return (self.string(),)
        return tuple(item.string() for item in self.sequence())


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, sorted(choices), n=1)
    return DID_YOU_MEAN.format(word=close[0]) if close else ""


def load(text: str, *, file: str = "") -> Node:
    """The document's root Node (value None for an empty file). Raises ConfigError."""
    size = len(text.encode("utf-8", "replace"))
    if size > MAX_CONFIG_BYTES:
        raise ConfigError("", None, TOO_LARGE.format(size=size, limit=MAX_CONFIG_BYTES), file=file)
    loader = yaml.SafeLoader(text)  # the safe loader: plain data only, never Python objects
    try:
        root = loader.get_single_node()
        if root is None:
            return Node("", 1, None, file)
        return _Builder(loader, file).build(root, "", 0)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        raise ConfigError("", mark.line + 1 if mark else None,
                          NOT_YAML.format(problem=error.problem or error.context), file=file) from None
    except yaml.YAMLError as error:
        raise ConfigError("", None, NOT_YAML.format(problem=error), file=file) from None
    except RecursionError:
        raise ConfigError("", None, TOO_DEEP.format(limit=MAX_DEPTH), file=file) from None
    finally:
        loader.dispose()


class _Builder:
    def __init__(self, loader: yaml.SafeLoader, file: str):
        self.loader, self.file, self.count = loader, file, 0

    def build(self, node: yaml.Node, key: str, depth: int) -> Node:
        self.count += 1
        line = node.start_mark.line + 1
        if self.count > MAX_NODES:
            raise ConfigError(key, line, TOO_BIG.format(limit=MAX_NODES), file=self.file)
        if depth > MAX_DEPTH:
            raise ConfigError(key, line, TOO_DEEP.format(limit=MAX_DEPTH), file=self.file)
        if node.tag not in PLAIN_TAGS:
            # The builder reads collections itself, so it must refuse tags it would ignore.
            tag = node.tag.replace(YAML_TAG, "!!")
            raise ConfigError(key, line, UNSUPPORTED_TAG.format(tag=tag), file=self.file)
        if isinstance(node, yaml.MappingNode):
            return Node(key, line, self._mapping(node, key, depth), self.file)
        if isinstance(node, yaml.SequenceNode):
            items = [self.build(item, f"{key}[{i}]", depth + 1) for i, item in enumerate(node.value)]
            return Node(key, line, items, self.file)
        return Node(key, line, self.loader.construct_object(node, deep=True), self.file)

    def _mapping(self, node: yaml.MappingNode, key: str, depth: int) -> dict[str, Node]:
        seen: set[str] = set()
        for name_node, _ in node.value:
            # safe_load keeps the last of two equal keys silently; a typo'd copy would win.
            if name_node.value in seen and name_node.value != "<<":
                raise ConfigError(_join(key, name_node.value), name_node.start_mark.line + 1,
                                  DUPLICATE, file=self.file)
            seen.add(name_node.value)
        self.loader.flatten_mapping(node)  # resolves `<<: *defaults` merge keys
        out: dict[str, Node] = {}
        for name_node, value_node in node.value:
            # The key as written: YAML 1.1 would turn a bare `on:` into True, `1:` into 1.
            name = str(name_node.value)
            child = self.build(value_node, _join(key, name), depth + 1)
            child.line = name_node.start_mark.line + 1
            out[name] = child
        return out


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name
