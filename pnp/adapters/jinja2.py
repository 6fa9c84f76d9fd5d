"""jinja2's internals: checking a `str.format` call in the sandbox before it runs.

The sandbox hands every `"...".format` and `format_map` it lets a template call
to `SandboxedEnvironment.wrap_str_format`, an undocumented hook (jinja2 3.1.5+);
pnp checks the format string there (no huge field widths). Where the hook is not
tested, `str.format` is refused in templates through the public
`is_safe_attribute` instead (the `format` filter and `%` still work).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from pnp.adapters import Gate

GATE = Gate("jinja2", jinja2.__version__, ("3.1",))
ACTIVE = GATE.active


def checking_str_format(
    base: type[SandboxedEnvironment], check: Callable[[str], None]
) -> type[SandboxedEnvironment]:
    """A subclass of the sandbox `base` that passes each format string a template uses to `check`
    (which raises to refuse it); or one that refuses `str.format` outright when not active."""
    if ACTIVE:

        class Checked(base):  # type: ignore[valid-type,misc]
            def wrap_str_format(self, value: Any) -> Any:
                wrapped = super().wrap_str_format(value)
                if wrapped is not None:
                    check(str(getattr(value, "__self__", "")))
                return wrapped

        return Checked

    class Refusing(base):  # type: ignore[valid-type,misc]
        def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
            if isinstance(obj, str) and attr in ("format", "format_map"):
                return False
            return bool(super().is_safe_attribute(obj, attr, value))

    return Refusing
