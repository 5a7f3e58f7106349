"""The Kubernetes v1.18 OpenAPI schemas: what the API serves, and what came later.

Upstream: api/openapi-spec/swagger.json @ v1.18.0, as the pinned ``kubernetes-validate``
1.18.0 package ships it (strict JSON schemas: no property beyond the published ones).
"""
