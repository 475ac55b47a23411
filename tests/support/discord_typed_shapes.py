"""Required keys of discord.py's payload TypedDicts, read from its source with `ast`.

`discord/types/*.py` declares the payload shapes discord.py expects (they cannot be imported
at run time: the modules import each other in a cycle meant only for type checkers). A key
is required unless the class is `total=False` or the annotation is `NotRequired[...]`;
bases are followed across `from .module import Name` imports.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import discord

TYPES = Path(discord.__file__).parent / "types"


@cache
def _module(name: str) -> tuple[dict[str, ast.ClassDef], dict[str, str]]:
    tree = ast.parse((TYPES / f"{name}.py").read_text(encoding="utf-8"))
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    imported: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            for alias in node.names:
                imported[alias.asname or alias.name] = node.module
    return classes, imported


def _wrapper(annotation: ast.expr) -> str | None:
    if isinstance(annotation, ast.Subscript) and isinstance(annotation.value, ast.Name):
        return annotation.value.id
    return None


def required_keys(module: str, name: str) -> frozenset[str]:
    """The keys a payload of `discord.types.<module>.<name>` must have."""
    classes, imported = _module(module)
    if name not in classes:
        return required_keys(imported[name], name)
    cls = classes[name]
    total = not any(
        kw.arg == "total" and isinstance(kw.value, ast.Constant) and kw.value.value is False
        for kw in cls.keywords
    )
    keys: set[str] = set()
    for base in cls.bases:
        if isinstance(base, ast.Name) and base.id not in ("TypedDict", "Generic"):
            keys |= required_keys(module, base.id)
    for stmt in cls.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            wrapper = _wrapper(stmt.annotation)
            if wrapper == "Required" or (total and wrapper != "NotRequired"):
                keys.add(stmt.target.id)
            else:
                keys.discard(stmt.target.id)
    return frozenset(keys)
