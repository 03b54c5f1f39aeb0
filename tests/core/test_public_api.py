"""The public namespace: light to import, lazy names resolve, every public name is documented."""
import pathlib
import subprocess
import sys

import dpverify

API_DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "api.md"


def test_import_dpverify_loads_neither_scipy_nor_sympy_nor_pytest_plugins():
    code = ("import sys, dpverify; "
            "print(sorted(m for m in ('scipy', 'sympy', 'mpmath', 'hypothesis', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_lazy_names_resolve_and_audit_stays_the_function():
    import dpverify.auditing.whitebox  # noqa: F401  (importing the subpackage must not rebind dpverify.auditing)

    assert callable(dpverify.audit) and not hasattr(dpverify.audit, "__path__")
    assert dpverify.Accountant.__name__ == "Accountant"
    assert callable(dpverify.calibrate.gaussian)
    assert callable(dpverify.audit_mutual_information)
    assert set(dpverify.__all__) <= set(dir(dpverify))


def test_unknown_attribute_is_an_attribute_error():
    try:
        dpverify.no_such_name  # noqa: B018
    except AttributeError as exc:
        assert "no_such_name" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("expected AttributeError")


def test_every_public_name_is_documented_in_api_md():
    """Each name of dpverify.__all__ appears in docs/api.md as code: `name`, `dpverify.name(...`."""
    import re

    text = API_DOC.read_text()
    missing = [n for n in dpverify.__all__ if not re.search(r"`(dpverify\.)?%s[`(\s]" % re.escape(n), text)]
    assert missing == []
