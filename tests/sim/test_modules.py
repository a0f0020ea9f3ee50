"""Modules for a host with no module loader: imports and exports rewritten on their own lines,
every loop condition guarded by the watchdog, nothing inside strings, comments, regular
expressions or template text touched."""

from __future__ import annotations

import quickjs  # type: ignore[import-untyped]
from hypothesis import given
from hypothesis import strategies as st

from mcbews_repl.sim.modules import WATCHDOG, code_mask, guard_loops, wrap_module


def run(module: str, builtins: dict[str, str] | None = None) -> object:
    """Evaluate a wrapped module in QuickJS and return what it exports, as JSON."""
    ctx = quickjs.Context()
    ctx.eval("globalThis.__mcbews_watchdog = () => true")
    fn = ctx.eval(wrap_module(module).function)
    ctx.set("__f", fn)
    mods = builtins or {}
    ctx.eval(f"globalThis.__mods = {{ {', '.join(f'{k!r}: {v}' for k, v in mods.items())} }}")
    return ctx.eval(
        "(() => { const e = {}; __f((s) => __mods[s], e);"
        " return JSON.stringify(e, (k, v) => typeof v === 'function' ? 'a function' : v); })()"
    )


def test_imports_and_exports_of_every_kind() -> None:
    module = """import { a, b as c } from "m";
import d from "m";
import * as all from "m";
import e, { a as f } from "m";
export const x = a + c;
export function g() { return d; }
export default { all: Object.keys(all).length, e, f };
const h = 3;
export { h, h as i };
"""
    shown = run(module, {"m": "{ a: 1, b: 2, default: 'D' }"})
    assert shown == '{"default":{"all":3,"e":"D","f":1},"h":3,"i":3,"x":3,"g":"a function"}'


def test_every_line_stays_on_its_line() -> None:
    module = (
        'import {\n  a,\n  b\n} from "m";\nexport {\n  a,\n  b\n};\nthrow new Error("line 9");\n'
    )
    wrapped = wrap_module(module).function
    lines = wrapped.splitlines()
    assert 'throw new Error("line 9");' in lines[8]
    assert wrap_module(module).imports == ["m"]


def test_loops_are_guarded_and_nothing_else() -> None:
    source = (
        "while (x) {}\n"
        "do { y++ } while (y < 3);\n"
        "for (let i = 0; i < 3; i++) {}\n"
        "for (;;) { break; }\n"
        "for (const k of list) {}\n"
        "const s = 'while (1) {}'; // for (;;)\n"
        "/* while (2) */ const r = /for (;;)/g;\n"
        "const t = `while (3) ${ (() => { while (z) {} })() }`;\n"
        "obj.while(1);\n"
    )
    guarded = guard_loops(source).splitlines()
    assert guarded[0] == f"while ({WATCHDOG} && (x)) {{}}"
    assert guarded[1] == f"do {{ y++ }} while ({WATCHDOG} && (y < 3));"
    assert guarded[2] == f"for (let i = 0;{WATCHDOG} && ( i < 3); i++) {{}}"
    assert guarded[3] == f"for (;{WATCHDOG};) {{ break; }}"
    assert guarded[4:7] == source.splitlines()[4:7]
    assert (
        guarded[7]
        == f"const t = `while (3) ${{ (() => {{ while ({WATCHDOG} && (z)) {{}} }})() }}`;"
    )
    assert guarded[8] == "obj.while(1);"


def test_the_mask_sees_division_and_regular_expressions_apart() -> None:
    source = "a = b / c / d; e = /x\\/y/.test(f); g = (h) / 2;"
    mask = code_mask(source)
    assert mask[source.index("/x")] == 0 and mask[source.index("/ c")] == 1
    assert mask[source.index("/ 2")] == 1


@given(st.lists(st.sampled_from([
    "while (a) { b(); }", "for (let i = 0; i < n; i++) {}", "'for (;;)'", "// while (x)",
    "/* for */", "`${ x } while`", "x = y / z;", "r = /[/]while/;", "do {} while (q);",
]), max_size=12))  # fmt: skip
def test_guarding_keeps_the_lines_and_is_idempotent_on_text(parts: list[str]) -> None:
    source = "\n".join(parts)
    guarded = guard_loops(source)
    assert guarded.count("\n") == source.count("\n")
    assert guarded.replace(f"{WATCHDOG} && (", "").replace(WATCHDOG, "").count("(") == (
        source.count("(")
    )


def test_an_export_form_it_cannot_rewrite_names_its_line() -> None:
    import pytest

    from mcbews_repl.sim.modules import ModuleSyntaxError

    with pytest.raises(ModuleSyntaxError, match="not supported") as refused:
        wrap_module('const a = 1;\nexport * from "./other.js";\n')
    assert refused.value.line == 2
