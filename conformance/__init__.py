"""metric-conformance engine: cases, adapter protocol, runner, reports, CLI."""
