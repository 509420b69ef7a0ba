#!/bin/bash
# The extraction behind bench/results/realhistory.md: MIRRORS holds the `fetch`ed bare mirrors
# (owner+name/repo), OUT receives pairs.jsonl and the trees. Then:
#   python -m tests.realhistory.compare --pairs "$OUT"
set -euo pipefail
MIRRORS=${MIRRORS:-/work/.mirror} OUT=${OUT:?set OUT to an empty folder}
PY=${PY:-python}
x() { "$PY" -m tests.realhistory.extract --out "$OUT" "$@"; }
m() { echo "$MIRRORS/${1/\//+}/repo"; }

# protobuf
x --mirror "$(m open-telemetry/opentelemetry-proto)" --format protobuf --glob 'opentelemetry/**/*.proto'
x --mirror "$(m grpc/grpc-proto)" --format protobuf --glob 'grpc/**/*.proto'
x --mirror "$(m cncf/xds)" --format protobuf --glob 'xds/**/*.proto' --glob 'udpa/**/*.proto' \
  --dep "$(m bufbuild/protoc-gen-validate):validate/validate.proto"
x --mirror "$(m temporalio/api)" --format protobuf --glob 'temporal/**/*.proto' --per-file 4
# Avro: file histories, then versioned protocol families kept side by side (v1/, v2/, ...)
x --mirror "$(m apache/gobblin)" --format avro --glob '**/*.avsc'
x --mirror "$(m kaaproject/kaa)" --format avro --glob '**/*.avsc'
x --mirror "$(m linkedin/venice)" --format avro --glob '**/*.avsc'
V=internal/venice-common/src/main/resources/avro
for family in KafkaMessageEnvelope PartitionState StoreVersionState PushJobDetails \
    MetadataResponseRecord StoreMetaValue; do
  x --mirror "$(m linkedin/venice)" --format avro --series "$V/$family/v*/$family.avsc" --max-pairs 40
done
x --mirror "$(m linkedin/venice)" --format avro --max-pairs 40 \
  --series 'services/venice-controller/src/main/resources/avro/AdminOperation/v*/AdminOperation.avsc'
# JSON Schema (no reference tool: our verdicts, crashes and hand checks)
x --mirror "$(m mozilla-services/mozilla-pipeline-schemas)" --format jsonschema \
  --glob 'schemas/**/*.schema.json' --per-file 3
x --mirror "$(m SchemaStore/schemastore)" --format jsonschema --glob 'src/schemas/json/*.json' \
  --per-file 2
