"""`$ref` resolution for one version: its document and the repository's files it references.

Each reference resolves against the base URI of the schema it sits in, as the specification
says: the nearest enclosing `$id`, joined onto its parent's, and at the top the document's own
`$id`, else the file's path (`file:///` + the repository path). The `referencing` library does
the lookups, in a registry that holds this document and, as references reach them, the other
files of the same revision (the version's schema set, `Source.imports`): by path
(`"$ref": "common/address.schema.json"`) or by `$id`. Nothing is ever fetched from the network.

A reference the set cannot satisfy (no such file, `$id` or pointer) is recorded in `unresolved`
and stands for External: the head's fail the check (jsonschema.compare raises the first), and
the base's mark where the base cannot be compared (no validator could use it there). One
written as an absolute URI that no file of the set declares is recorded in `elsewhere` instead:
it may name a document outside the repository, which jsonschema.outside decides with both
versions' sets in hand.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from urllib.parse import unquote, urldefrag, urljoin, urlsplit

import referencing
import referencing.jsonschema
from referencing.exceptions import NoSuchAnchor, NoSuchResource, PointerToNowhere, Unresolvable

from .. import jsontext
from ..limits import MAX_SET_DOCUMENTS
from ..model import SchemaError, Unresolved
from . import drafts, keywords
from .drafts import Draft

FILE_BASE = "file:///"  # a document without an `$id` is known by its path in the repository
DANGLING = '{keyword} "{ref}" does not point at anything in {searched}'
NO_FILE = '{keyword} "{ref}" does not resolve: there is no schema file {path}'
# Named by the reference as written alone: whether such a file exists is never told.
OUTSIDE_CHECKOUT = ('{keyword} "{ref}" does not resolve: it points outside the checkout, '
                    'which is never read')
NO_ID = '{keyword} "{ref}" does not resolve: no schema file declares the $id {uri}'
# A limit, not the repository, left the target out: the reference is never taken for one to a
# document outside the repository (jsonschema.outside), and a base's is never excused.
NOT_READ = '{keyword} "{ref}" was not checked: {why}'
WITHHELD = "its target may be {path}, which was not read ({why})"
SEARCH_CUT = "the search for a schema file declaring {uri} stopped at {limit}"
CIRCULAR = '{keyword} "{ref}" is circular: it only ever points at other references'
NOT_A_SCHEMA = '{keyword} "{ref}" points at a value that is not a schema'
# 2019-09 defines `$recursiveRef` for "#" only; validators read any other value differently.
RECURSIVE_ONLY_ROOT = '{keyword} "{ref}" is not supported: only "#" is defined'
# A dynamic reference of another draft: readers of this file's draft ignore it, readers of the
# draft defining it follow it (jsonschema's default, without "$schema", is the latest), so
# what the file means depends on the reader: fail closed rather than read it as "anything".
NOT_IN_DRAFT = ('{keyword} "{ref}" was not checked: {draft}, the draft this file is read as, '
                'does not define {keyword} (declare the "$schema" it was written for)')
# A dynamic reference's target is the outermost resource of the dynamic scope declaring its
# anchor. The engine knows the checked document (outermost) and the reference's static target;
# a third resource declaring the anchor may sit between them, and which one applies is not known.
DYNAMIC_SCOPE = ('{keyword} "{ref}" was not checked: its target depends on the dynamic scope, '
                 'and {other} also declares {anchor}')
# Two files claiming one `$id`: which one a reference means cannot be told, and a copy added
# beside the real one must not get to stand in for it.
AMBIGUOUS = '{keyword} "{ref}" is ambiguous: {first} and {second} both declare the $id {uri}'


def _schemas_only(spec: referencing.Specification) -> referencing.Specification:
    """The draft as `referencing` has it, crawling schemas only: it takes every value of
    draft 4-7 `dependencies` for a subresource, a list of names too, and crashes on that list
    (SchemaStore's tmlanguage.json: `"end": ["begin"]`)."""
    return referencing.Specification(
        name=spec.name, id_of=spec.id_of, anchors_in=lambda _self, contents: spec.anchors_in(contents),
        subresources_of=lambda contents: (each for each in spec.subresources_of(contents)
                                          if isinstance(each, (dict, bool))),
        maybe_in_subresource=spec.maybe_in_subresource)


SPECIFICATIONS = {
    Draft.DRAFT4: _schemas_only(referencing.jsonschema.DRAFT4),
    Draft.DRAFT6: _schemas_only(referencing.jsonschema.DRAFT6),
    Draft.DRAFT7: _schemas_only(referencing.jsonschema.DRAFT7),
    Draft.DRAFT2019: _schemas_only(referencing.jsonschema.DRAFT201909),
    Draft.DRAFT2020: _schemas_only(referencing.jsonschema.DRAFT202012),
}

# Keys that give a schema (or a part of it) a name to be found by, or another draft: only a
# document holding one somewhere has anything for `referencing`'s crawl to find.
_REFERENCE_KEYS = frozenset(drafts.ALL_REFERENCES)
_NAMING = frozenset({"$id", "id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$schema"})
# The same drafts without subresources or anchors: the crawl of a document that names nothing
# reads its root alone (pointers are resolved through the contents, not through the crawl).
_ROOT_ONLY = {draft: referencing.Specification(
    name=spec.name, id_of=spec.id_of, subresources_of=lambda _contents: (),
    anchors_in=lambda _spec, _contents: (), maybe_in_subresource=spec.maybe_in_subresource)
    for draft, spec in SPECIFICATIONS.items()}


class External:
    """A reference the schema set cannot satisfy (`Refs.unresolved` says why): nothing it
    stands for can be checked."""

    def __init__(self, ref: str):
        self.ref = ref


def uri_of(path: str) -> str:
    return urljoin(FILE_BASE, path.lstrip("/"))


class Refs:
    """The references of one version: its document, plus the set's files as they are reached.
    `schemas`: every schema object of the document (keywords.walk(root))."""

    def __init__(self, root: object, draft: Draft, file: str, schemas: list,
                 files: Mapping[str, str] | None = None, withheld: Mapping[str, str] | None = None):
        self.root, self.draft, self.file, self._schemas = root, draft, file, schemas
        # id(schema) -> (schema, the base URI its references use); the schema is kept so that
        # an id is never another, freed object's (callers pass temporary nodes too).
        self._bases: dict[int, tuple[object, str]] = {}
        self._files = files or {}
        self._withheld = withheld or {}  # path -> why it was not fetched (Source.withheld)
        self._paths: dict[str, str] | None = None  # URI -> path in the set, on first need
        self._loaded: set[str] = {file}  # paths whose documents are in the registry
        self._searched: set[str] = set()  # last URI segments already looked for as `$id`s
        self._cut: set[str] = set()  # ... whose search stopped at MAX_SET_DOCUMENTS
        # (id(node), reference keyword) -> (node, target)
        self._targets: dict[tuple[int, str], tuple[dict, object]] = {}
        self._registry = referencing.Registry()
        self._declared: dict[str, str] = {}  # an `$id` (absolute, no fragment) -> the file's URI
        self._ambiguous: dict[str, tuple[str, str]] = {}
        self.unresolved: list[Unresolved] = []  # references that stand for External, in order
        # absolute-URI references no file of the set declares, as written -> the first one's error
        self.elsewhere: dict[str, Unresolved] = {}
        self.not_fetched: list[SchemaError] = []  # unresolved because a limit withheld the target
        self._add(root, draft, uri_of(file))

    def _add(self, root: object, draft: Draft, uri: str) -> None:
        """Register a document under its path URI (its `$id`s are found by crawling) and
        note the base URI of each of its schemas."""
        names = _names_anything(root)
        spec = SPECIFICATIONS[draft] if names else _ROOT_ONLY[draft]
        self._registry = self._registry.with_resource(uri, spec.create_resource(root)).crawl()
        # Where nothing declares an `$id`, every schema's base is the document's own URI.
        bases = _with_bases(root, draft, uri) if names else (
            (schema, uri, False) for schema in (self._schemas if root is self.root else keywords.walk(root)))
        for schema, base, declared in bases:
            if declared:
                first = self._declared.setdefault(base, uri)
                if first != uri:
                    self._ambiguous.setdefault(base, (first, uri))
            self._bases[id(schema)] = (schema, base)

    @staticmethod
    def keywords_in(node: object) -> tuple[str, ...]:
        """The reference keywords `node` holds (`$ref`, `$dynamicRef`...), of any draft: one
        its draft does not define fails when looked up (NOT_IN_DRAFT)."""
        if not isinstance(node, dict) or _REFERENCE_KEYS.isdisjoint(node):
            return ()  # most objects: one set operation, no generator
        return tuple(key for key in drafts.ALL_REFERENCES if isinstance(node.get(key), str))

    def target(self, node: dict, keyword: str = "$ref") -> object:
        """What `node[keyword]` points at: a schema, or External. SchemaError when dangling."""
        known = self._targets.get((id(node), keyword))
        if known is None or known[0] is not node:
            known = self._targets[(id(node), keyword)] = (node, self._lookup(node, keyword))
        return known[1]

    def base_of(self, node: object) -> str:
        """The base URI `node`'s references resolve against (a node not in the set: the file's)."""
        known = self._bases.get(id(node))
        return known[1] if known is not None and known[0] is node else uri_of(self.file)

    def _lookup(self, node: dict, keyword: str) -> object:
        """A reference's static target, found the same way whatever its keyword; a dynamic
        one then moves to the outermost resource declaring its anchor (_dynamic)."""
        ref = node[keyword]
        if keyword not in self.draft.reference_keywords:
            return self._unresolved(node, keyword, NOT_IN_DRAFT, draft=self.draft.value)
        if keyword == "$recursiveRef" and ref != "#":
            return self._unresolved(node, keyword, RECURSIVE_ONLY_ROOT)
        base = self.base_of(node)
        target = urldefrag(urljoin(base, ref))[0]
        self._reach(target)
        if target in self._ambiguous:
            first, second = (_shown(each) for each in self._ambiguous[target])
            raise _error(node, keyword, self.file, AMBIGUOUS, first=first, second=second, uri=target)
        try:
            found = self._registry.resolver(base_uri=base).lookup(ref).contents
        except (PointerToNowhere, NoSuchAnchor):
            searched = self._searched_in(node, keyword, target)
            return self._unresolved(node, keyword, DANGLING, searched=searched)
        except Unresolvable:
            why = self._left_out(target)
            if why is not None:
                found = self._unresolved(node, keyword, NOT_READ, why=why)
                self.not_fetched.append(self.unresolved[-1])
                return found
            if target.startswith(FILE_BASE) and getattr(self._files, "outside", None) \
                    and self._files.outside(self._shown(target)):
                return self._unresolved(node, keyword, OUTSIDE_CHECKOUT)
            if target.startswith(FILE_BASE):
                return self._unresolved(node, keyword, NO_FILE, path=self._shown(target))
            if urlsplit(ref).scheme:  # written as a URL: it may name a document outside the repository
                return self._unresolved(node, keyword, NO_ID, self.elsewhere, uri=target)
            return self._unresolved(node, keyword, NO_ID, uri=target)
        if not isinstance(found, (dict, bool)):
            raise _error(node, keyword, self.file, NOT_A_SCHEMA)
        return found if keyword == "$ref" else self._dynamic(node, keyword, found)

    def _dynamic(self, node: dict, keyword: str, found: object) -> object:
        """A dynamic reference whose static target declares its anchor ("bookending") means
        the outermost resource of the dynamic scope declaring it: the checked document's, when
        it does. Another resource declaring it may sit between the two: that is not checked."""
        anchor = _dynamic_anchor(keyword, node[keyword])
        if anchor is None or not _declares(found, anchor):
            return found  # not bookended: it is a plain `$ref`
        root_base = self.base_of(self.root)
        outer = next((schema for schema, base in self._bases.values()
                      if base == root_base and _declares(schema, anchor)), None)
        bases = {root_base, self.base_of(found)}
        other = next((base for schema, base in self._bases.values()
                      if base not in bases and _declares(schema, anchor)), None)
        if other is not None:
            return self._unresolved(node, keyword, DYNAMIC_SCOPE, other=self._file_of(other),
                                    anchor=_anchor_shown(anchor))
        return found if outer is None else outer

    def _searched_in(self, node: dict, keyword: str, target: str) -> str:
        """The file a reference's pointer or anchor was looked for in ("this file" when it is
        the one holding the reference)."""
        path = self._file_of(target)
        return "this file" if path == getattr(_line(node, keyword), "file", self.file) else path

    def _file_of(self, uri: str) -> str:
        """The file a document's URI (its path or `$id`) names, spelled as the set spells it."""
        uri = self._declared.get(uri, uri)
        return self.file if uri == uri_of(self.file) else (self._path_of(uri) or _shown(uri))

    def _unresolved(self, node: dict, keyword: str, template: str, elsewhere: dict | None = None,
                    **more: str) -> External:
        error = _error(node, keyword, self.file, template, **more)
        unresolved = Unresolved(error.file, error.line, error.problem)
        if elsewhere is None:
            self.unresolved.append(unresolved)
        else:
            elsewhere.setdefault(node[keyword], unresolved)
        return External(node[keyword])

    def _left_out(self, uri: str) -> str | None:
        """Why a limit may have left out the file `uri` names, if one may have: a file not
        fetched (by its path, or a URL by its last segment, as the App looks files up), or a
        search for the file declaring a URL that stopped at its bound."""
        if uri.startswith(FILE_BASE):
            path = unquote(uri[len(FILE_BASE):])
            withheld = next((each for each in self._withheld if uri_of(each) == uri_of(path)), None)
        else:
            segment = _segment(uri)
            withheld = next((each for each in sorted(self._withheld)
                             if each.rpartition("/")[2] == segment), None)
            if withheld is None and segment in self._cut:
                return SEARCH_CUT.format(uri=uri, limit=f"{MAX_SET_DOCUMENTS} files parsed")
            if withheld is None and getattr(self._files, "cut_short", False):
                return SEARCH_CUT.format(uri=uri, limit="the bound of the files listed in its tree")
        return None if withheld is None else WITHHELD.format(path=withheld, why=self._withheld[withheld])

    def declarer(self, uri: str) -> str | None:
        """The set's file declaring the `$id` `uri` (absolute, no fragment), if one does."""
        self._reach(uri)
        declared = self._declared.get(uri)
        return None if declared is None else self._shown(declared)

    def _shown(self, uri: str) -> str:
        """A `file:///` URI as a path spelled like the checked file's (absolute or not)."""
        return ("/" if self.file.startswith("/") else "") + _shown(uri)

    def resolver(self, node: object = None):
        """A `referencing` resolver at a schema's base URI (default: the document's) over the
        files reached so far, for validators: they see the same files and never fetch one."""
        node = self.root if node is None else node
        return self._registry.resolver(base_uri=self.base_of(node))

    def _reach(self, uri: str) -> None:
        """Bring the set's file for `uri` into the registry: by its path, else by its `$id`."""
        if not uri or self._known(uri):
            return
        path = self._path_of(uri)
        if path is not None:
            self._load(path)
            return
        # An unknown URL may be a file's `$id`: only a file whose text holds its last segment
        # can declare it (absolute or relative), so only those are parsed, a bounded number.
        segment = _segment(uri)
        if segment in self._searched:
            return
        self._searched.add(segment)
        for each in sorted(self._files):
            if len(self._loaded) > MAX_SET_DOCUMENTS:
                self._cut.add(segment)  # a file left unread may declare it
                break
            if each not in self._loaded and segment in self._files[each]:
                self._load(each)

    def _path_of(self, uri: str) -> str | None:
        """The set's file a `file:///` URI names, spelled as the set spells it."""
        if not uri.startswith(FILE_BASE):
            return None
        path = unquote(uri[len(FILE_BASE):])
        if self.file.startswith("/"):
            path = "/" + path  # a local absolute path lost its slash in the URI
        if path in self._files:
            return path
        if self._paths is None:
            self._paths = {uri_of(each): each for each in self._files}
        return self._paths.get(uri_of(path))

    def _known(self, uri: str) -> bool:
        try:
            self._registry.get_or_retrieve(uri)
        except (NoSuchResource, Unresolvable):
            return False
        return True

    def _load(self, path: str) -> None:
        if path in self._loaded:
            return
        self._loaded.add(path)
        try:
            root = jsontext.loads(self._files[path], path, located=True)
        except SchemaError:
            return  # not JSON: references to it stay external, and it is reported where checked
        if isinstance(root, (dict, bool)):
            self._add(root, _draft_of(root, self.draft), uri_of(path))

    def is_plain_ref(self, node: object) -> bool:
        """A reference that stands for its target alone (siblings ignored or only annotations)."""
        found = self.keywords_in(node)
        if len(found) != 1:
            return False
        return (found[0] == "$ref" and self.draft.ref_overrides_siblings) or all(
            key == found[0] or key in keywords.ANNOTATIONS for key in node)

    def resolve(self, node: object) -> object:
        """Follow plain references to the schema they stand for (or External)."""
        seen = set()
        while self.is_plain_ref(node):
            keyword = self.keywords_in(node)[0]
            if id(node) in seen:
                raise _error(node, keyword, self.file, CIRCULAR)
            seen.add(id(node))
            node = self.target(node, keyword)
            if isinstance(node, External):
                return node
        return node

    def check_all(self) -> None:
        """Fail on the first purely circular reference anywhere in the document, and record
        (`unresolved`) every reference that does not resolve, in it or in the files it reaches."""
        own = {id(schema) for schema in self._schemas}
        # The document's own schemas without a reference add nothing: only those with one, in
        # order, and the other files' schemas they reach.
        stack = [schema for schema in reversed(self._schemas) if self.keywords_in(schema)]
        seen: set[int] = set()
        while stack:
            schema = stack.pop()
            if id(schema) in seen:
                continue
            seen.add(id(schema))
            if id(schema) not in own:
                stack.extend(keywords.children(schema))  # the document's own are listed already
            found = self.keywords_in(schema)
            if found and id(schema) in own:
                self.resolve(schema)
            for keyword in found:
                target = self.target(schema, keyword)
                if not isinstance(target, External) and id(target) not in own:
                    stack.append(target)  # another file's schema: its references count too


def _segment(uri: str) -> str:
    """A URL's last path segment: what a file declaring it as its `$id` must hold."""
    return uri.rstrip("/").rpartition("/")[2]


def _shown(uri: str) -> str:
    """A file of the set as its path, from the URI it is registered under."""
    return unquote(uri[len(FILE_BASE):]) if uri.startswith(FILE_BASE) else uri


def _draft_of(root: object, default: Draft) -> Draft:
    """A referenced file's own draft; without a known `$schema` it is read as the referrer's."""
    uri = root.get("$schema") if isinstance(root, dict) else None
    return drafts.URIS.get(drafts.normalise(uri), default) if isinstance(uri, str) else default


def _error(node: dict, keyword: str, file: str, template: str, **more: str) -> SchemaError:
    """A SchemaError naming the file the reference sits in (maybe a referenced file)."""
    line = _line(node, keyword)
    return SchemaError(getattr(line, "file", file), None if line is None else int(line),
                       template.format(keyword=keyword, ref=node[keyword], **more))


def _line(node: dict, keyword: str) -> int | None:
    key_line = getattr(node, "key_line", None)
    return key_line(keyword) if key_line else None


def _dynamic_anchor(keyword: str, ref: str) -> str | bool | None:
    """The anchor a dynamic reference looks for in the dynamic scope: `$dynamicRef`'s fragment
    when it is a name (a JSON pointer is static), `$recursiveRef`'s `$recursiveAnchor: true`."""
    if keyword == "$recursiveRef":
        return True
    fragment = urldefrag(ref)[1]
    return fragment if fragment and not fragment.startswith("/") else None


def _declares(schema: object, anchor: str | bool) -> bool:
    key = "$recursiveAnchor" if anchor is True else "$dynamicAnchor"
    return isinstance(schema, dict) and schema.get(key) == anchor


def _anchor_shown(anchor: str | bool) -> str:
    return "$recursiveAnchor" if anchor is True else f'$dynamicAnchor "{anchor}"'


def references(root: object) -> frozenset[str]:
    """The other documents a parsed schema's references (`$ref` and the dynamic ones) name, as
    written (fragments dropped): what its schema set must hold. A reference into the document
    itself names none."""
    found = set()
    for schema in keywords.walk(root):
        for ref in _written(schema):
            if uri := urldefrag(ref)[0]:
                found.add(uri)
    return frozenset(found)


def reference_uris(root: object, file: str) -> frozenset[str]:
    """The documents a parsed schema's `$ref`s name, as absolute URIs (fragments dropped): each
    joined onto the base URI of the schema it sits in (its `$id`s, as `Refs` resolves it), and
    onto the file's path alone (a repository's layout usually mirrors its `$id`s, but need not):
    every document the reference may mean. A reference into the document itself names none."""
    found, schemas = set(), set()
    for schema, base, _declared in _with_bases(root, _draft_of(root, drafts.DEFAULT), uri_of(file)):
        schemas.add(id(schema))
        for written in _written(schema):
            if ref := urldefrag(written)[0]:
                found |= {urljoin(base, ref), urljoin(uri_of(file), ref)}
    # A reference outside any schema keyword (`"shared": {"w": {"$ref": ...}}`) is followed
    # too when a JSON pointer reaches it: joined onto the document's own base.
    bases = {uri_of(file), id_of(root, file) or uri_of(file)}
    for written in _anywhere(root, schemas):
        if ref := urldefrag(written)[0]:
            found |= {urljoin(base, ref) for base in bases}
    return frozenset(found)


_VALUES = frozenset({"const", "enum", "default", "examples"})  # data, not schemas: no reference


def _anywhere(root: object, schemas: set) -> list[str]:
    """Every reference written in an object of the document, outside data keywords, that is
    not one of `schemas` (ids of the schema objects, whose references are read with their base)."""
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if id(node) not in schemas:
                found += [node[key] for key in Refs.keywords_in(node)]
            stack.extend(value for key, value in node.items() if key not in _VALUES)
        elif isinstance(node, list):
            stack.extend(node)
    return found


def declared_ids(root: dict) -> dict[str, dict]:
    """Each `$id` a document declares (its own and its subschemas'), joined onto the enclosing
    ones but not onto a file's path (fragments dropped) -> the first schema declaring it."""
    found: dict[str, dict] = {}
    for schema, base, declared in _with_bases(root, _draft_of(root, drafts.DEFAULT), ""):
        if declared and base:
            found.setdefault(base, schema)
    return found


def _written(schema: object) -> list[str]:
    """A schema object's references of any draft, as written: one its draft does not define
    still fails the file, so its target belongs in the set as much as a `$ref`'s."""
    return [schema[key] for key in Refs.keywords_in(schema)]


def _names_anything(root: object) -> bool:
    """Whether any object of the document, the root included, has a key of _NAMING (in a
    schema or not: cheaper than knowing which values each draft crawls, and never less)."""
    stack = [root]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if not _NAMING.isdisjoint(value) and value is not root:
                return True
            if value is root and not _NAMING.isdisjoint(value.keys() - {"$schema"}):
                return True
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


def _with_bases(root: object, draft: Draft, uri: str) -> Iterator[tuple[dict, str, bool]]:
    """Each schema object of a document known as `uri`, with the base URI its references
    resolve against (the nearest enclosing `$id`, joined onto its parent's) and whether it
    declares an `$id` itself."""
    spec = SPECIFICATIONS[draft]
    stack = [(root, uri)]
    while stack:
        schema, base = stack.pop()
        if isinstance(schema, dict):
            ident = spec.id_of(schema)
            if isinstance(ident, str):
                base = urldefrag(urljoin(base, ident))[0] or base
            yield schema, base, isinstance(ident, str)
        stack.extend((child, base) for child in keywords.children(schema))


def id_of(root: object, file: str) -> str | None:
    """The absolute URI a document declares for itself with a top-level `$id` (else None)."""
    if not isinstance(root, dict):
        return None
    ident = SPECIFICATIONS[_draft_of(root, drafts.DEFAULT)].id_of(root)
    return urldefrag(urljoin(uri_of(file), ident))[0] or None if isinstance(ident, str) else None
