"""schema-review's GitHub App: reviews pull requests that change Avro, Protobuf or JSON Schemas."""
