"""The repository's `.github/schema-review.yml` as a validated, frozen Config.

| key | default | meaning |
|---|---|---|
| `version` | `1` | config format version; only `1` exists |
| `_extends` | (none) | `.github`, `NAME` or `OWNER/NAME` (same owner): the base this file refines |
| `paths.avro` | `["**/*.avsc"]` | globs of Avro schemas (`*` stays in one directory, `**` crosses them) |
| `paths.protobuf` | `["**/*.proto"]` | globs of Protobuf schemas |
| `paths.jsonschema` | `["**/*.schema.json", "**/schemas/**/*.json"]` | globs of JSON Schemas |
| `exclude` | `[]` | globs never reviewed |
| `compatibility` | `backward` | `backward`, `forward`, `full`, or one of them with `_transitive` |
| `overrides` | `[]` | `[{paths: [globs], compatibility: ...}]`, first match wins |
| `transitive_versions` | `5` | versions on the base branch (the base included) `*_transitive` checks against |
| `jsonschema.policy` | `lenient` | `strict` (Confluent: open content models may hold anything) or `lenient` |
| `jsonschema.format_assertion` | `false` | `true`: validators assert `format`, so changing it is an error, not a warning |
| `protobuf.categories` | `[WIRE, WIRE_JSON]` | buf breaking categories (`FILE`, `PACKAGE`, `WIRE_JSON`, `WIRE`), as buf selects rules; replaces `buf.yaml`'s `breaking.use` categories |
| `protobuf.import_roots` | `[]` | directories, relative to the repository root, imports resolve from |
| `rules` | `{}` | `RULE_ID: error, warning, info or off` |
| `deprecation_window_days` | `14` | days a field must stay deprecated before it may be deleted |
| `promotion_window_days` | `90` | days a field must have been optional before making it required is only a warning; `0`: always an error |
| `max_files` | `300` | schema files reviewed per pull request; the rest are not reviewed, which fails the check |
| `override.min_permission` | `write` | permission needed for `/schema-override`: read, triage, write, maintain, admin |
| `override.allow_users` / `allow_teams` | `[]` | users and `org/team` slugs allowed whatever their permission |
| `override.allow_author` | `false` | whether the pull request's author may override their own change |
| `override.allow_committers` | `false` | whether someone who authored, committed or pushed a commit of the pull request may override it |
| `override.min_reason_length` | `10` | visible characters the override's reason needs (spaces not counted) |
| `override.conclusion` | `success` | conclusion of an overridden check: `success` or `neutral` |
| `consumers` | `[]` | `[{paths: [globs], owners: ["@org/team", "@user"], name: label}]`: who reads which files; the App asks them to review a change that deprecates, removes, renames or breaks an element (bot/handlers/consumers.py) |

Formats not listed under `paths` keep their default globs; `[]` turns a format off.

buf's files at the base (rules/protobuf/bufyaml.py) add import roots after `protobuf.import_roots`,
and the `breaking:` section of the module holding a file applies beneath this config:
`protobuf.categories` replaces its `use`/`except`, and `rules:` severities beat what `use`,
`except`, `ignore` and `ignore_only` decide for those rules (rules/protobuf/bufrules.py).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable, Mapping, NamedTuple

import rules
from rules import Format, Mode, Policy, Severity
from rules.protobuf import bufrules, categories
from rules.protobuf.bufyaml import Layout

from bot.config import configschema, consumers, globs
from bot.config.bot_rules import (  # noqa: F401 (re-exported: the config's readers name them from here)
    BOT_RULES, CONSUMERS_MIGRATION, DEPRECATION_WINDOW, SCHEMA_FILE_REMOVED, SCHEMA_IDENTITY_DUPLICATED, SCHEMA_INVALID,
    SCHEMA_NOT_REVIEWED, SCHEMA_REVIEW_BUDGET, Conclusion)
from bot.config.configfile import ConfigError, Node, did_you_mean, load  # noqa: F401 (ConfigError: re-exported)
from bot.config.extends import BAD_TARGET, EXTENDS_KEY, split_target

CONFIG_PATH = ".github/schema-review.yml"
BAD_VERSION = "expected 1, the only config version"
BAD_ROOT = "expected a relative directory inside the repository"
UNKNOWN_RULE = "unknown rule{hint}"
NO_CATEGORY = "expected at least one category"
OFF = "off"
PROTO_CATEGORIES = tuple(reversed(categories.ORDER))  # strictest first, as buf lists them

DEFAULT_PATHS = MappingProxyType({
    Format.AVRO: ("**/*.avsc",),
    Format.PROTOBUF: ("**/*.proto",),
    Format.JSONSCHEMA: ("**/*.schema.json", "**/schemas/**/*.json"),
})


class Compatibility(enum.StrEnum):
    BACKWARD = "backward"
    FORWARD = "forward"
    FULL = "full"
    BACKWARD_TRANSITIVE = "backward_transitive"
    FORWARD_TRANSITIVE = "forward_transitive"
    FULL_TRANSITIVE = "full_transitive"

    @property
    def mode(self) -> Mode:
        return Mode(self.value.removesuffix("_transitive"))

    @property
    def transitive(self) -> bool:
        return self.value.endswith("_transitive")


class Permission(enum.StrEnum):
    """GitHub's repository permission levels, weakest first."""

    READ = "read"
    TRIAGE = "triage"
    WRITE = "write"
    MAINTAIN = "maintain"
    ADMIN = "admin"

    @property
    def rank(self) -> int:
        return list(Permission).index(self)


class Classification(NamedTuple):
    format: Format
    mode: Mode
    transitive: bool


@dataclass(frozen=True)
class PathOverride:
    paths: tuple[str, ...]
    compatibility: Compatibility


@dataclass(frozen=True)
class OverridePolicy:
    """Who may force a failing check green with `/schema-override <reason>`."""

    min_permission: Permission = Permission.WRITE
    allow_users: tuple[str, ...] = ()
    allow_teams: tuple[str, ...] = ()
    allow_author: bool = False
    allow_committers: bool = False
    min_reason_length: int = 10
    conclusion: Conclusion = Conclusion.SUCCESS


@dataclass(frozen=True)
class Config:
    version: int = 1
    paths: Mapping[Format, tuple[str, ...]] = field(default_factory=lambda: DEFAULT_PATHS)
    exclude: tuple[str, ...] = ()
    compatibility: Compatibility = Compatibility.BACKWARD
    overrides: tuple[PathOverride, ...] = ()
    transitive_versions: int = 5
    policy: Policy = Policy.LENIENT
    format_assertion: bool = False
    proto_categories: frozenset[str] | None = None  # None: not set here (buf.yaml's, else the default)
    import_roots: tuple[str, ...] = ()
    severities: Mapping[str, Severity | None] = field(default_factory=dict)
    deprecation_window_days: int = 14
    promotion_window_days: int = 90
    max_files: int = 300
    override: OverridePolicy = OverridePolicy()
    consumers: tuple[consumers.Consumer, ...] = ()

    def classify(self, path: str) -> Classification | None:
        """The format and mode a repository path is reviewed with, or None when it is no schema."""
        if globs.matches(path, self.exclude):
            return None
        fmt = next((f for f in Format if globs.matches(path, self.paths.get(f, ()))), None)
        if fmt is None:
            return None
        chosen = next((o.compatibility for o in self.overrides if globs.matches(path, o.paths)),
                      self.compatibility)
        return Classification(fmt, chosen.mode, chosen.transitive)

    def reviews(self, path: str, previous: str | None = None) -> bool:
        """Whether a change of `path` (renamed from `previous`) is reviewed: a file renamed to a
        name the config does not review leaves the review, a removal to check (bot/review/moves.py)."""
        return self.classify(path) is not None or bool(previous) and self.classify(previous) is not None

    def options(self) -> rules.Options:
        engine_rules = {k: v for k, v in self.severities.items() if k not in BOT_RULES}
        return rules.Options(policy=self.policy, format_assertion=self.format_assertion,
                             proto_categories=self.proto_categories or categories.DEFAULT,
                             severities=engine_rules)

    def proto_options(self, path: str, layout: Layout | None) -> tuple[rules.Options, tuple[str, ...]]:
        """Options for one protobuf file: buf.yaml's `breaking:` section of the module holding it,
        beneath this config (its categories and rule severities win), and notes about buf's files."""
        if layout is None:
            return self.options(), ()
        return bufrules.for_file(layout, path, self.options(),
                                 categories_given=self.proto_categories is not None,
                                 configured=frozenset(self.severities))

    def severity(self, rule: str, default: Severity) -> Severity | None:
        return self.severities.get(rule, default)

    def consumers_of(self, path: str) -> tuple[consumers.Consumer, ...]:
        return consumers.consumers_of(self.consumers, path)


def parse_config(text: str | None, *, known_rules: frozenset[str] | None = None,
                 file: str = CONFIG_PATH, extend: Callable[[Node], Node] | None = None) -> Config:
    """Config from the file's text (None: no file, the defaults). Raises ConfigError.

    `extend` resolves `_extends` (bot/config/extends.py): the file's tree merged over its base's, or
    refuses it where no base can be read (local reviews: `no_base_here`).
    """
    if text is None:
        return Config()
    root = load(text, file=file)
    if extend is not None:
        root = extend(root)
    if root.value is None:
        return Config()
    known = known_rules if known_rules is not None else frozenset(rules.all_specs()) | BOT_RULES
    configschema.check(root, special=_SCHEMA_WORDING, rule_ids=known)
    top = root.mapping(allowed=_TOP_KEYS)
    if "version" in top and top["version"].integer() != 1:
        raise top["version"].error(BAD_VERSION)
    if EXTENDS_KEY in top:  # followed by `extend`; its shape is checked either way
        split_target(top[EXTENDS_KEY])
    values: dict = {key: reader(top[key]) for key, reader in _READERS.items() if key in top}
    if "jsonschema" in top:
        section = top["jsonschema"].mapping(allowed=("policy", "format_assertion"))
        if "policy" in section:
            values["policy"] = section["policy"].choice(Policy)
        if "format_assertion" in section:
            values["format_assertion"] = section["format_assertion"].boolean()
    if "protobuf" in top:
        values.update(_protobuf(top["protobuf"]))
    if "rules" in top:
        values["severities"] = _severities(top["rules"], known)
    return Config(**values)


def _paths(node: Node) -> Mapping[Format, tuple[str, ...]]:
    given = node.mapping(allowed=[f.value for f in Format])
    return MappingProxyType({f: given[f.value].globs() if f.value in given else DEFAULT_PATHS[f]
                             for f in Format})


def _overrides(node: Node) -> tuple[PathOverride, ...]:
    out = []
    for item in node.sequence():
        entry = item.mapping(allowed=("paths", "compatibility"), required=("paths", "compatibility"))
        out.append(PathOverride(entry["paths"].globs(), entry["compatibility"].choice(Compatibility)))
    return tuple(out)


def _protobuf(node: Node) -> dict:
    section = node.mapping(allowed=("categories", "import_roots"))
    values = {}
    if "categories" in section:
        items = section["categories"].sequence()
        if not items:
            raise section["categories"].error(NO_CATEGORY)
        values["proto_categories"] = frozenset(item.choice_of(PROTO_CATEGORIES, upper=True)
                                               for item in items)
    if "import_roots" in section:
        roots = []
        for item in section["import_roots"].sequence():
            root = item.string().strip("/") if not item.string().startswith("/") else ""
            if not root or ".." in root.split("/"):
                raise item.error(BAD_ROOT)
            roots.append(root)
        values["import_roots"] = tuple(roots)
    return values


def _severities(node: Node, known: frozenset[str]) -> Mapping[str, Severity | None]:
    out: dict[str, Severity | None] = {}
    for rule, value in node.mapping().items():
        if rule not in known:
            raise value.error(UNKNOWN_RULE.format(hint=did_you_mean(rule, known)))
        # YAML 1.1 reads a bare `off` as false, so both spellings turn a rule off.
        chosen = value.choice_of((*[s.value for s in Severity], OFF), falsy=OFF)
        out[rule] = None if chosen == OFF else Severity(chosen)
    return MappingProxyType(out)


def _override_policy(node: Node) -> OverridePolicy:
    section = node.mapping(allowed=[f for f in OverridePolicy.__dataclass_fields__])
    readers = {
        "min_permission": lambda n: n.choice(Permission),
        "allow_users": lambda n: tuple(item.string() for item in n.sequence()),
        "allow_teams": lambda n: tuple(item.string() for item in n.sequence()),
        "allow_author": Node.boolean,
        "allow_committers": Node.boolean,
        "min_reason_length": lambda n: n.integer(low=0, high=1000),
        "conclusion": lambda n: Conclusion(n.choice_of((Conclusion.SUCCESS, Conclusion.NEUTRAL))),
    }
    return OverridePolicy(**{key: readers[key](value) for key, value in section.items()})


_READERS = {
    "paths": _paths,
    "exclude": Node.globs,
    "compatibility": lambda n: n.choice(Compatibility),
    "overrides": _overrides,
    "transitive_versions": lambda n: n.integer(low=1, high=50),
    "deprecation_window_days": lambda n: n.integer(low=0, high=3650),
    "promotion_window_days": lambda n: n.integer(low=0, high=3650),
    "max_files": lambda n: n.integer(low=1, high=3000),
    "override": _override_policy,
    "consumers": consumers.read,
}
_TOP_KEYS = ("version", *_READERS, "jsonschema", "protobuf", "rules", EXTENDS_KEY)
# The schema's findings on these keys, in the words the parser has always used for them.
_SCHEMA_WORDING = {("version",): BAD_VERSION, ("protobuf", "import_roots", "[]"): BAD_ROOT,
                   ("protobuf", "categories"): NO_CATEGORY,
                   ("rules", "*"): UNKNOWN_RULE, (EXTENDS_KEY,): BAD_TARGET.format(owner="OWNER"),
                   ("consumers", "[]", "owners"): consumers.NO_OWNER,
                   ("consumers", "[]", "owners", "[]"): consumers.BAD_OWNER}
