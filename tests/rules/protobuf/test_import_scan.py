"""rules/proto_imports.py reads a file's imports as protoc does: each spelling here is compiled
by protoc (grpc_tools), and the scan must name exactly the dependencies protoc recorded."""
from __future__ import annotations

import time

import pytest
from google.protobuf import descriptor_pb2
from grpc_tools import protoc

from rules.proto_imports import imported, imports

# statement -> what protoc reads (every file named exists, so protoc compiles them all)
SPELLINGS = {
    'import "money.proto";': ["money.proto"],
    "import 'money.proto';": ["money.proto"],
    'import /* c */ "money.proto";': ["money.proto"],
    'import // c\n  "money.proto" // d\n  ;': ["money.proto"],
    'import "mon" "ey.proto";': ["money.proto"],
    "import \"mon\" 'ey.proto';": ["money.proto"],
    'import "\\x6doney.proto";': ["money.proto"],
    'import "\\155oney.proto";': ["money.proto"],
    'import "mon\\u0065y.proto";': ["money.proto"],
    "import 'it\\'s.proto';": ["it's.proto"],
    'import public /* p */ "money.proto";': ["money.proto"],
    'import weak "money.proto";': ["money.proto"],
    '\ufeffimport "money.proto";': ["money.proto"],  # protoc skips a byte order mark
    'import "money.proto";import public \'it\\\'s.proto\';': ["money.proto", "it's.proto"],
    # Not imports: in a comment or a string, or a word that only ends in "import".
    '// import "no.proto";\n/* import "no.proto"; */': [],
    'option java_package = "import \\"no.proto\\";";': [],
    'message M { int32 import = 1; string weak = 2; }': [],
}
FILES = {"money.proto": 'syntax = "proto3";\n', "it's.proto": 'syntax = "proto3";\n'}


@pytest.mark.parametrize("statement", list(SPELLINGS))
def test_the_scan_names_the_dependencies_protoc_records(statement, tmp_path):
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    bom, statement_ = ("\ufeff", statement[1:]) if statement.startswith("\ufeff") else ("", statement)
    text = f'{bom}syntax = "proto3";\n{statement_}\n'
    (tmp_path / "user.proto").write_text(text, encoding="utf-8")
    out = tmp_path / "set.pb"
    assert protoc.main(["protoc", f"-I{tmp_path}", f"--descriptor_set_out={out}",
                        str(tmp_path / "user.proto")]) == 0
    [compiled] = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file
    assert list(compiled.dependency) == SPELLINGS[statement]
    assert imported(text) == SPELLINGS[statement] == imported(text.encode())


def test_public_and_weak_imports_say_so():
    found = imports('import public "p.proto"; import weak "w.proto"; import "n.proto";')
    assert [(i.name, i.modifier) for i in found] == [("p.proto", "public"), ("w.proto", "weak"),
                                                     ("n.proto", "")]


@pytest.mark.parametrize("hostile", [b"import;" + b"a;" * (1 << 19), b"import /*" * (1 << 17),
                                     b"import " + b'"x" ' * (1 << 17), b"import '\\" * (1 << 17)])
def test_a_hostile_file_is_scanned_in_linear_time(hostile):
    started = time.process_time()
    imports(hostile)
    assert time.process_time() - started < 2
