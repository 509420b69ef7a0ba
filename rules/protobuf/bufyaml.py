"""buf's layout files (buf.yaml v1/v2, buf.work.yaml, buf.gen.yaml) read as module roots and a
`breaking:` section each; these files are untrusted, so a bad one is a note, never an error."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from posixpath import dirname, join, normpath
from typing import Mapping

# Looked for in the directory of a schema and each of its parents; the first is a workspace.
NAMES = ("buf.work.yaml", "buf.yaml", "buf.gen.yaml")
MAX_BYTES = 64 * 1024
MAX_ITEMS = 200  # modules, directories, rule ids or paths one list may hold

UNREADABLE = "{file} was not used: {problem}"
NOT_YAML = "not valid YAML ({problem})"
TOO_LARGE = "over {limit:,} bytes"
NOT_MAPPING = "expected a mapping of keys to values"
BAD_LIST = "`{key}` is not a list of text"
BAD_PATH = "`{key}` holds {path!r}, which is not a relative path inside the repository"


class Unusable(ValueError):
    """The file cannot be used; the message says why, in words for the review's notes."""


@dataclass(frozen=True)
class Breaking:
    """A `breaking:` section; paths are repository paths (already joined to where buf reads them)."""

    use: tuple[str, ...] = ()
    except_: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    ignore_only: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Module:
    root: str  # repository path of the directory imports resolve from ("" is the top)
    breaking: Breaking | None = None
    file: str = ""  # the buf file that declared it
    deps: tuple[str, ...] = ()  # buf.yaml `deps:` (BSR modules), named in a missing import's error


def candidates(schema_path: str) -> list[str]:
    """Where buf files governing `schema_path` may sit: its directory and each parent's."""
    out, folder = [], dirname(schema_path)
    while True:
        out += [join(folder, name) if folder else name for name in NAMES]
        if not folder or folder == dirname(folder):
            return out
        folder = dirname(folder)


def modules(path: str, text: str) -> tuple[Module, ...]:
    """The modules one buf file declares. Raises Unusable."""
    if len(text.encode("utf-8", "replace")) > MAX_BYTES:
        raise Unusable(TOO_LARGE.format(limit=MAX_BYTES))
    import yaml  # only a repository with buf files pays for PyYAML's import (~25 ms)

    try:
        data = yaml.safe_load(text)  # plain data only; every value is checked before use
    except yaml.YAMLError as error:
        raise Unusable(NOT_YAML.format(problem=getattr(error, "problem", None) or error)) from None
    except RecursionError:
        raise Unusable(NOT_YAML.format(problem="nested too deeply")) from None
    data = {} if data is None else data
    if not isinstance(data, dict):
        raise Unusable(NOT_MAPPING)
    here, name = dirname(path), path.rsplit("/", 1)[-1]
    if name == "buf.work.yaml":
        return tuple(Module(_inside(here, d, "directories"), file=path)
                     for d in _texts(data, "directories"))
    if name == "buf.gen.yaml":
        inputs = [each for each in _list(data, "inputs") if isinstance(each, dict)]
        return tuple(Module(_inside(here, each["directory"], "inputs.directory"), file=path)
                     for each in inputs if isinstance(each.get("directory"), str))
    found = _buf_yaml(data, here) if name == "buf.yaml" else ()
    return tuple(dataclasses.replace(module, file=path) for module in found)


def _buf_yaml(data: dict, here: str) -> tuple[Module, ...]:
    if str(data.get("version", "v1")) != "v2":
        # v1 (and v1beta1): the file's directory is the module; v1beta1 may list build roots.
        build = data.get("build") if isinstance(data.get("build"), dict) else {}
        roots = _texts(build, "roots") or ["."]
        module_root = here
        breaking = _breaking(data.get("breaking"), module_root)
        deps = tuple(_texts(data, "deps"))
        return tuple(Module(_inside(here, root, "build.roots"), breaking, deps=deps) for root in roots)
    # v2: modules under the workspace directory; ignore paths are relative to the workspace.
    shared, deps = data.get("breaking"), tuple(_texts(data, "deps"))
    declared = [each for each in _list(data, "modules") if isinstance(each, dict)] or [{"path": "."}]
    out = []
    for each in declared:
        root = _inside(here, each.get("path", "."), "modules.path")
        out.append(Module(root, _breaking(each.get("breaking", shared), here), deps=deps))
    return tuple(out)


def _breaking(section, base: str) -> Breaking | None:
    if not isinstance(section, dict):
        return None
    only = section.get("ignore_only") if isinstance(section.get("ignore_only"), dict) else {}
    return Breaking(
        use=tuple(_texts(section, "use")), except_=tuple(_texts(section, "except")),
        ignore=tuple(_inside(base, p, "ignore") for p in _texts(section, "ignore")),
        ignore_only={str(rule): tuple(_inside(base, p, f"ignore_only.{rule}")
                                      for p in _texts(only, rule))
                     for rule in list(only)[:MAX_ITEMS]})


def _list(data: dict, key: str) -> list:
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > MAX_ITEMS:
        raise Unusable(BAD_LIST.format(key=key))
    return value


def _texts(data: dict, key: str) -> list[str]:
    items = _list(data, key)
    if not all(isinstance(item, str) for item in items):
        raise Unusable(BAD_LIST.format(key=key))
    return items


def _inside(base: str, relative, key: str) -> str:
    """`relative` joined to `base`, refused when it is absolute or climbs out of the tree."""
    if not isinstance(relative, str) or relative.startswith("/") or "\\" in relative \
            or "\0" in relative:
        raise Unusable(BAD_PATH.format(key=key, path=relative))
    joined = normpath(join(base, relative)) if base else normpath(relative)
    if joined == ".." or joined.startswith("../") or (base and not _under(joined, base)):
        raise Unusable(BAD_PATH.format(key=key, path=relative))
    return "" if joined == "." else joined


def _under(path: str, base: str) -> bool:
    return path == base or path.startswith(base.rstrip("/") + "/")


@dataclass(frozen=True)
class Layout:
    """Every module the buf files around a schema declare, and why any file was not used."""

    modules: tuple[Module, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def roots(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(module.root for module in self.modules))

    def deps_of(self, path: str) -> tuple[str, ...]:
        """The buf dependencies of the module holding `path` (none outside every module)."""
        module = self.module_of(path)
        return module.deps if module is not None else ()

    def module_of(self, path: str) -> Module | None:
        """The deepest module holding `path`; with a breaking section if any file gave it one."""
        holding = [m for m in self.modules if not m.root or _under(path, m.root)]
        holding.sort(key=lambda m: (len(m.root), m.breaking is not None))
        return holding[-1] if holding else None


def layout(files: Mapping[str, str]) -> Layout:
    """The Layout of buf files given as path -> text (paths in one tree, local or repository)."""
    found, notes = [], []
    for path, text in files.items():
        try:
            found += modules(path, text)
        except Unusable as error:
            notes.append(UNREADABLE.format(file=path, problem=error))
    return Layout(tuple(found), tuple(notes))
