"""Parse a Prometheus text exposition from stdin with the reference Python
client's parser and print its families as JSON (used by ops tests)."""
import json
import sys

from prometheus_client.parser import text_string_to_metric_families

out = []
for fam in text_string_to_metric_families(sys.stdin.read()):
    out.append({
        "name": fam.name,
        "type": fam.type,
        "samples": [{"name": s.name, "labels": s.labels, "value": s.value} for s in fam.samples],
    })
json.dump(out, sys.stdout)
