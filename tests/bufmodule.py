"""The buf module fixture (tests/rules/protobuf/bufrepo) as base and head file trees."""
from __future__ import annotations

from pathlib import Path

FIXTURE = Path(__file__).resolve().parent / "rules" / "protobuf" / "bufrepo"
ORDER, MONEY = "proto/acme/order/order.proto", "proto/acme/common/money.proto"


def trees(layout: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """Base and head with `layout` (buf's files by path) in both. The head adds a type in one
    file and uses it in another, renames `customer_name` and deletes `LegacyOrder`."""
    base = {path: (FIXTURE / path).read_text() for path in (ORDER, MONEY)} | layout
    order = base[ORDER].replace("string customer_name = 3;",
                                "string customer = 3;\n  acme.common.Discount discount = 4;")
    head = {**base, MONEY: base[MONEY] + "\nmessage Discount {\n  int32 percent = 1;\n}\n",
            ORDER: order.replace("message LegacyOrder {\n  string id = 1;\n}\n\n", "")}
    return base, head


def write(root: Path, files: dict[str, str]) -> Path:
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    (root / ".git").mkdir(exist_ok=True)  # the checkout's top: the search for buf files stops here
    return root
