"""The registry of proof strategies: one handler per strategy (and, where a statement class needs its own, per class).

A handler is a function ``handler(lemma)`` that returns a :class:`~dpverify.symbolic.verdicts.CheckResult` when it
settles the lemma (PROVED, CERTIFIED or REFUTED), a string saying why it did not, or None (nothing to try).
:meth:`Lemma.check <dpverify.symbolic.lemma.Lemma.check>` runs the point search, then asks :func:`handler_for` for
the handler of the lemma's ``strategy`` and class, the way sympy's assumption predicates dispatch to the handler
registered for an expression's type (``@PositivePredicate.register(Add)``): the class's method resolution order is
walked and the first registration wins, so a statement class can refine a strategy
(``info_theory.SignLemma`` registers its own ``NONNEG_TERMS``) without touching :class:`Lemma`.

* :class:`Strategy` -- the built-in strategies (an Enum; its value is the phrase verdicts quote);
* :func:`register` -- ``@register(key, for_class=object, description=None)``: a key is a :class:`Strategy` member or
  a new strategy's name (a string); :func:`unregister` removes one;
* :func:`handler_for`, :func:`is_registered`, :func:`describe`, :func:`registered` -- lookups.

This module imports nothing of the package: the built-in handlers (``dpverify.symbolic.strategies.*``) import it,
and so does the lemma, which never imports a handler by name.
"""
from __future__ import annotations

import enum
from typing import Callable

from ...errors import InvalidArgument

__all__ = ["Strategy", "Handler", "register", "unregister", "handler_for", "is_registered", "describe", "registered"]


class Strategy(enum.Enum):
    """How ``Lemma.check`` tries to settle an inequality (identities are always tried symbolically)."""

    IDENTITY = "identity"
    NONNEG_TERMS = "sum of nonnegative terms"
    DERIVATIVE = "sign of a derivative"
    CONCAVE = "concavity and endpoints"
    MONOTONE = "monotone enclosure (branch and bound, Arb balls)"
    INTERVAL = "ball arithmetic (Arb, branch and bound)"
    SAMPLED = "sampled search"
    CASES = "case split, each case a sum of nonnegative terms"
    PROFILE = "Gaussian privacy-profile enclosure (branch and bound, Arb balls)"
    REPARAM = "hypotheses parametrised exactly, then a sign proof of the margin"


#: a handler: lemma -> CheckResult (settled), str (why not) or None (nothing to try)
Handler = Callable[[object], object]

_HANDLERS: dict[tuple[object, type], Handler] = {}
_DESCRIPTIONS: dict[object, str] = {}


def _check_key(key) -> None:
    if not (isinstance(key, Strategy) or (isinstance(key, str) and key)):
        raise InvalidArgument(f"strategy={key!r} must be a Strategy member or a non-empty strategy name (a string).")


def register(key, for_class: type = object, *, description: str | None = None) -> Callable[[Handler], Handler]:
    """Decorator: register ``handler`` for the strategy ``key`` on statements of class ``for_class`` (and its
    subclasses, unless they have their own). ``description`` (default: a Strategy member's value, or the name) is
    the phrase a verdict quotes when the strategy does not settle a lemma. Registering the same (key, class) twice
    replaces the handler (the last registration wins)."""
    _check_key(key)
    if not isinstance(for_class, type):
        raise InvalidArgument(f"for_class={for_class!r} must be a class (the statements the handler serves).")

    def deco(handler: Handler) -> Handler:
        if not callable(handler):
            raise InvalidArgument(f"handler={handler!r} must be callable: handler(lemma) -> CheckResult | str | None.")
        _HANDLERS[(key, for_class)] = handler
        if description is not None:
            _DESCRIPTIONS[key] = description
        elif key not in _DESCRIPTIONS:
            _DESCRIPTIONS[key] = key.value if isinstance(key, Strategy) else key
        return handler
    return deco


def unregister(key, for_class: type = object) -> None:
    """Remove the handler registered for ``key`` on ``for_class`` (a plugin's, or a test's); InvalidArgument if there is
    none. The strategy's description goes with its last handler."""
    if (key, for_class) not in _HANDLERS:
        raise InvalidArgument(f"strategy={key!r} has no handler registered for {for_class.__name__}; nothing to remove.")
    del _HANDLERS[(key, for_class)]
    if not is_registered(key):
        _DESCRIPTIONS.pop(key, None)


def is_registered(key) -> bool:
    """True if some class has a handler for ``key``."""
    return any(k == key for k, _ in _HANDLERS)


def registered() -> list:
    """The registered strategy keys (Strategy members first, in declaration order, then names, sorted)."""
    keys = {k for k, _ in _HANDLERS}
    members = [s for s in Strategy if s in keys]
    return members + sorted(k for k in keys if isinstance(k, str))


def _known() -> str:
    return ", ".join(k.name if isinstance(k, Strategy) else repr(k) for k in registered())


def handler_for(key, cls: type = object) -> Handler:
    """The handler registered for ``key`` on ``cls`` or its nearest base class; InvalidArgument naming the known
    strategies when there is none."""
    _check_key(key)
    for klass in cls.__mro__:
        handler = _HANDLERS.get((key, klass))
        if handler is not None:
            return handler
    where = "" if cls is object else f" for {cls.__name__} statements"
    raise InvalidArgument(f"strategy={key!r} has no registered handler{where}; registered strategies: {_known()}. "
                          "Register one with @dpverify.symbolic.strategies.register(key).")


def describe(key) -> str:
    """The phrase verdicts quote for ``key`` (its registered description; a Strategy member's value)."""
    if key in _DESCRIPTIONS:
        return _DESCRIPTIONS[key]
    return key.value if isinstance(key, Strategy) else str(key)
