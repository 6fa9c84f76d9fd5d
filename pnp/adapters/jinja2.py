"""jinja2's internals: checking a `str.format` call and a `~` concatenation in the sandbox before they run.

The sandbox hands every `"...".format` and `format_map` it lets a template call
to `SandboxedEnvironment.wrap_str_format`, an undocumented hook (jinja2 3.1.5+);
pnp checks the format string there (no huge field widths) and, when the call
comes, its arguments (no huge result). Where the hook is not tested, `str.format`
is refused in templates through the public `is_safe_attribute` instead (the
`format` filter and `%` still work).

`a ~ b` compiles to a join jinja2 writes inline (`str_join`); `concat_generator`
makes it call a function of the environment instead, which can refuse a result
too large before it is made. Where not tested, `~` compiles as jinja2 writes it
(the memory limit still stops a runaway template).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jinja2
from jinja2.compiler import CodeGenerator, optimizeconst
from jinja2.sandbox import SandboxedEnvironment

from pnp.adapters import Gate

GATE = Gate("jinja2", jinja2.__version__, ("3.1",))
ACTIVE = GATE.active


def checking_str_format(
    base: type[SandboxedEnvironment],
    check: Callable[[str], None],
    check_call: Callable[[str, tuple, dict], None] = lambda text, args, kwargs: None,
) -> type[SandboxedEnvironment]:
    """A subclass of the sandbox `base` that passes each format string a template uses to `check`
    and, when it is called, the string and its arguments to `check_call` (either raises to refuse
    it); or one that refuses `str.format` outright when not active."""
    if ACTIVE:

        class Checked(base):  # type: ignore[valid-type,misc]
            def wrap_str_format(self, value: Any) -> Any:
                wrapped = super().wrap_str_format(value)
                if wrapped is None:
                    return None
                text = str(getattr(value, "__self__", ""))
                check(text)
                mapping = getattr(value, "__name__", "") == "format_map"

                def checked(*args: Any, **kwargs: Any) -> Any:
                    if mapping and len(args) == 1 and isinstance(args[0], dict):
                        check_call(text, (), args[0])
                    else:
                        check_call(text, args, kwargs)
                    return wrapped(*args, **kwargs)

                return checked

        return Checked

    class Refusing(base):  # type: ignore[valid-type,misc]
        def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
            if isinstance(obj, str) and attr in ("format", "format_map"):
                return False
            return bool(super().is_safe_attribute(obj, attr, value))

    return Refusing


def concat_generator(method: str) -> type[CodeGenerator]:
    """A code generator whose `a ~ b ~ c` calls `environment.<method>((a, b, c))` (which joins them as text);
    jinja2's own generator when the adapter is not active."""
    if not ACTIVE:
        return CodeGenerator

    class Concatenating(CodeGenerator):
        @optimizeconst
        def visit_Concat(self, node: Any, frame: Any) -> None:
            self.write(f"environment.{method}((")
            for arg in node.nodes:
                self.visit(arg, frame)
                self.write(", ")
            self.write("))")

    return Concatenating
