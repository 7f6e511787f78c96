"""Table-driven tests from the store's own OpenAPI document (GET {base_url}/openapi.json), whose every operation
carries an example request that works on a fresh demo store: each answers its documented success, then each is
refused as the spec says (no credential, a bad one, no scope, an unknown id or parameter, a paused or suspended
store, past the rate limit)."""

import itertools

import pytest

from conftest import Api, outcome, store_of

UNKNOWN_ID = "00000000-0000-4000-8000-000000000000"
keys = itertools.count()


def operations(doc):
    """Every operation of the document with its example request filled in from the parameters' examples."""
    for template, item in doc["paths"].items():
        for method, op in item.items():
            path, query, key = template, {}, None
            for p in op.get("parameters", []):
                if p["in"] == "path":
                    path = path.replace("{" + p["name"] + "}", p["example"])
                elif p["in"] == "query" and "example" in p:
                    query[p["name"]] = p["example"]
                elif p["in"] == "header" and p["name"] == "Idempotency-Key":
                    key = p["example"]
            media = op.get("requestBody", {}).get("content", {}).get("application/json")
            body = next(iter(media["examples"].values()))["value"] if media else None
            security = op.get("security", [{}])[0].get("apiKey", [])
            success = next(int(s) for s in op["responses"] if s.startswith("2"))
            yield {"id": op["operationId"], "method": method.upper(), "template": template, "path": path,
                   "query": query, "body": body, "key": key, "scopes": security, "success": success}


def send_example(api, op, path=None, own_key=False, **extra):
    """The operation's example request; a refusal check sends a key of its own (a refusal is replayed to a retry
    with the same key, and a key is remembered per credential whatever the route)."""
    key = op["key"] and (f"{op['key']}-{next(keys)}" if own_key else op["key"])
    return outcome(api.send(op["method"], path or op["path"], op["body"], key, **op["query"], **extra))


@pytest.fixture
def ops(api):
    return list(operations(api.get("/openapi.json").body))


def test_the_document_describes_46_operations_served_at_the_stores_base_url(api, demo):
    doc = api.get("/openapi.json").body
    assert (len(list(operations(doc))), doc["servers"][0]["url"]) == (46, demo["base_url"])


def test_every_example_request_answers_its_documented_success_on_a_fresh_store(api, ctl, ops):
    answered = []
    for op in ops:
        ctl("POST", "/reset", {})
        answered.append((op["id"], *send_example(api, op)))
    assert answered == [(op["id"], op["success"]) for op in ops]


def test_every_operation_refuses_as_the_spec_says(api, ctl, sandbox, demo, ops):
    none, read = (Api(demo["base_url"], store_of(sandbox, "demo", k)["key"]) for k in ("none", "read"))
    for op in ops:
        ctl("POST", "/reset", {})
        got, want = [], []

        def check(answer, expected):
            got.append((op["id"], *answer))
            want.append((op["id"], *expected))

        check(send_example(api.with_token(None), op, own_key=True), (401, "UNAUTHORIZED"))
        check(send_example(api.with_token("not-a-key"), op, own_key=True), (401, "UNAUTHORIZED"))
        check(send_example(api, op, own_key=True, unknown_parameter=1), (400, "VALIDATION_FAILED"))
        check(send_example(none, op, own_key=True), (op["success"],) if not op["scopes"] else (403, "INSUFFICIENT_SCOPE"))
        writes = any(s.endswith(":write") for s in op["scopes"])
        check(send_example(read, op, own_key=True), (403, "INSUFFICIENT_SCOPE") if writes else (op["success"],))
        if "{id}" in op["template"]:
            segments = op["path"].split("/")
            segments[op["template"].split("/").index("{id}")] = UNKNOWN_ID
            check(send_example(api, op, path="/".join(segments), own_key=True), (404, "NOT_FOUND"))
        ctl("PATCH", f"/stores/{demo['prefix']}", {"status": "paused"})
        check(send_example(api, op, own_key=True), (402, "RETAILER_PAUSED"))
        ctl("PATCH", f"/stores/{demo['prefix']}", {"status": "suspended"})
        check(send_example(api, op, own_key=True), (403, "RETAILER_SUSPENDED"))
        assert got == want


def test_past_120_requests_a_minute_every_operation_answers_429_until_the_clock_moves(api, ctl, ops):
    ctl("POST", "/reset", {})  # a fresh window: reading the document was a request too
    for _ in range(120):
        assert api.get("/me").status == 200
    assert [(op["id"], *send_example(api, op, own_key=True)) for op in ops] == [
        (op["id"], 429, "RATE_LIMITED") for op in ops
    ]
    assert int(api.get("/me").headers["Retry-After"]) > 0
    ctl.advance(60)
    assert api.get("/me").status == 200


@pytest.mark.parametrize("change, status, code", [
    ({"status": "paused"}, 402, "RETAILER_PAUSED"),
    ({"status": "trial_decision_required"}, 402, "TRIAL_DECISION_REQUIRED"),
    ({"status": "plan_users_exceeded"}, 402, "PLAN_USERS_EXCEEDED"),
    ({"status": "cancelled"}, 403, "RETAILER_CANCELLED"),
    ({"status": "suspended"}, 403, "RETAILER_SUSPENDED"),
    ({"status": "not_found"}, 403, "RETAILER_NOT_FOUND"),
    ({"plan": "lite"}, 402, "PLAN_REQUIRED"),
])
def test_a_stores_plan_or_status_refuses_every_call_with_its_code(api, ctl, demo, change, status, code):
    ctl("PATCH", f"/stores/{demo['prefix']}", change)
    assert outcome(api.get("/products")) == (status, code)
    ctl("PATCH", f"/stores/{demo['prefix']}", {"status": "active", "plan": "growth"})
    assert outcome(api.get("/products")) == (200,)
