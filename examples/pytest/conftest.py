"""One sandbox per pytest-xdist worker, on the one simulator the CI job started (RETAIL_SIM_URL).

Every sandbox is tagged with the run's name (RETAIL_SIM_RUN, default "pytest") and deleted when its worker
ends; the simulator keeps the run's coverage, so after the tests one report covers every worker:

    retail-sim coverage --from "$RETAIL_SIM_URL/_sim/runs/$RETAIL_SIM_RUN" --out reports/coverage --min 60

Standard library only, besides pytest and pytest-xdist.
"""

import json
import os
import urllib.error
import urllib.parse
import urllib.request
from collections import namedtuple

import pytest

Answer = namedtuple("Answer", "status body headers")


def call(method, url, body=None, token=None, form=None, query=None, headers=None):
    """One request; an HTTP error is an answer here, not an exception. `body` is JSON, `form` a form body."""
    all_headers, data = dict(headers or {}), None
    if body is not None:
        all_headers["content-type"], data = "application/json", json.dumps(body).encode()
    if form is not None:
        all_headers["content-type"] = "application/x-www-form-urlencoded"
        data = urllib.parse.urlencode(form).encode()
    if token is not None:
        all_headers["authorization"] = f"Bearer {token}"
    if query:
        url += "?" + urllib.parse.urlencode({k: str(v).lower() if isinstance(v, bool) else v for k, v in query.items()})
    request = urllib.request.Request(url, data=data, method=method, headers=all_headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, answer_headers, raw = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, answer_headers, raw = error.code, error.headers, error.read()
    text = raw.decode()
    return Answer(status, json.loads(text) if text and text[0] in "[{" else text, answer_headers)


def outcome(answer):
    """(status,) for a success, (status, code) for a refusal: what the tests compare."""
    if answer.status < 400:
        return (answer.status,)
    error = answer.body.get("error")
    return (answer.status, error["code"] if isinstance(error, dict) else error)


class Api:
    """The SDK under test stands here: a store's base URL and a credential, nothing else from the simulator."""

    def __init__(self, base_url, token):
        self.base_url, self.token = base_url, token

    def with_token(self, token):
        return Api(self.base_url, token)

    def send(self, method, path, body=None, key=None, **query):
        headers = {"idempotency-key": key} if key is not None else None
        return call(method, self.base_url + path, body, self.token, query=query, headers=headers)

    def get(self, path, **query):
        return self.send("GET", path, **query)

    def all(self, path, **query):
        """Every row of a list, following next_cursor while has_more."""
        rows, cursor = [], None
        while True:
            page = self.get(path, **query, **({"cursor": cursor} if cursor else {})).body
            rows += page["data"]
            if not page["has_more"]:
                return rows
            cursor = page["next_cursor"]


@pytest.fixture(scope="session")
def sim_url():
    """The simulator's API root, shared by every worker."""
    return os.environ["RETAIL_SIM_URL"].rstrip("/")


@pytest.fixture(scope="session")
def sandbox(sim_url, worker_id):
    """Each xdist worker (gw0, gw1, ...; "master" without -n) is a session of its own: one sandbox each, tagged
    with the run, deleted when the worker ends. Its coverage stays counted in the run's."""
    run = os.environ.get("RETAIL_SIM_RUN", "pytest")
    made = call("POST", f"{sim_url}/_sim/sandboxes", {"run": run, "clock": "manual"})
    assert made.status == 201, f"{worker_id}: POST /_sim/sandboxes answered {made.status} {made.body}"
    yield made.body
    gone = call("DELETE", made.body["control_url"])
    assert gone.status == 204, f"{worker_id}: DELETE its sandbox answered {gone.status}"


class Control:
    """The sandbox's control plane: `ctl("POST", "/clock", {"advance_seconds": 60})`; a refusal fails the test."""

    def __init__(self, sandbox):
        self.url = sandbox["control_url"]

    def __call__(self, method, path, body=None):
        # /_sim refuses a write without Content-Type: application/json, an empty one too: send {} at least.
        if body is None and method not in ("GET", "DELETE"):
            body = {}
        answer = call(method, self.url + path, body)
        assert answer.status < 300, f"{method} {path} answered {answer.status} {answer.body}"
        return answer.body

    def advance(self, seconds):
        return self("POST", "/clock", {"advance_seconds": seconds})["now"]


@pytest.fixture
def ctl(sandbox):
    return Control(sandbox)


@pytest.fixture(autouse=True)
def fresh(sandbox):
    """A worker runs its tests one at a time, so resetting its own sandbox before each is safe."""
    Control(sandbox)("POST", "/reset", {})


def store_of(sandbox, name="demo", key_name="full"):
    """A store of the sandbox (demo, other or lite): its prefix, base URL, and a key's token and id."""
    found = next(s for s in sandbox["stores"] if s["prefix"] == f"{name}-{sandbox['id']}")
    key = next(k for k in found["keys"] if k["name"] == key_name)
    return {"prefix": found["prefix"], "base_url": found["base_url"], "key": key["token"], "key_id": key["id"]}


@pytest.fixture
def demo(sandbox):
    """The demo store of the sandbox: its prefix (demo-sbN), base URL, full key and the key's id."""
    return store_of(sandbox)


@pytest.fixture
def api(demo):
    return Api(demo["base_url"], demo["key"])
