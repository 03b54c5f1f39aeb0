"""Executable proof files, one per source paper (installed as ``dpverify_proofs``)."""
