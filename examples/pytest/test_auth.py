"""Credentials: key scopes, revocation, idleness and the failed-authentication limit; OAuth through the consent
page and the token endpoint; faults to retry (spec, Authentication and Limits). The clock is moved, never waited."""

import base64
import hashlib
import re
import threading
import urllib.error
import urllib.parse
import urllib.request

import pytest

from conftest import call, outcome


def test_me_a_scoped_key_and_a_revoked_one(api, ctl, demo):
    me = api.get("/me").body["data"]
    assert (me["domain_prefix"], me["key"]["name"]) == (demo["prefix"], "full")
    reader = api.with_token(ctl("POST", f"/stores/{demo['prefix']}/keys", {"name": "reader", "scopes": ["catalog:read"]})["token"])
    assert (outcome(reader.get("/products")), outcome(reader.send("POST", "/brands", {"name": "F"}))) == ((200,), (403, "INSUFFICIENT_SCOPE"))
    ctl("POST", f"/keys/{demo['key_id']}/revoke")
    assert outcome(api.get("/me")) == (401, "UNAUTHORIZED")


def test_a_key_idle_for_90_days_stops_working(api, ctl):
    ctl.advance(91 * 86400)
    assert outcome(api.get("/me")) == (401, "UNAUTHORIZED")


def test_31_failed_authentications_in_5_minutes_answer_429(api, ctl):
    bad = api.with_token("rsk_not_a_key")
    assert [bad.get("/me").status for _ in range(31)] == [401] * 30 + [429]
    ctl.advance(300)
    assert bad.get("/me").status == 401


@pytest.fixture
def oauth(sandbox, demo):
    client = sandbox["oauth_clients"][0]
    admin = next(u for u in sandbox["users"] if u["store_prefix"] == demo["prefix"] and u["role"] == "admin")
    return {"client": client, "redirect_uri": client["redirect_uris"][0], "admin": admin, "root": sandbox["api_root"]}


def hidden(html):
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', html))


def consent(oauth, scope, decision, **extra):
    """The merchant on the consent page: signs in as the demo admin, then allows or cancels; the redirect's query."""
    query = {"response_type": "code", "client_id": oauth["client"]["client_id"], "redirect_uri": oauth["redirect_uri"],
             "scope": scope, "state": "s1", **extra}
    sign_in = call("GET", f"{oauth['root']}/oauth/authorize", query=query)
    assert sign_in.status == 200
    form = {**hidden(sign_in.body), "email": oauth["admin"]["email"], "password": "retail-sim"}
    page = call("POST", f"{oauth['root']}/oauth/authorize", form=form)
    assert page.status == 200
    decided = no_redirect("POST", f"{oauth['root']}/oauth/authorize", {**hidden(page.body), "decision": decision})
    assert decided[0] == 302
    return dict(urllib.parse.parse_qsl(urllib.parse.urlparse(decided[1]).query))


def no_redirect(method, url, form):
    """A form post whose 302 is returned, not followed: (status, Location)."""

    class Keep(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    request = urllib.request.Request(url, urllib.parse.urlencode(form).encode(), method=method,
                                     headers={"content-type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.build_opener(Keep).open(request) as response:
            return response.status, response.headers.get("Location")
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Location")


def token(oauth, basic=False, **form):
    client = oauth["client"]
    headers = {}
    if basic:
        headers["authorization"] = "Basic " + base64.b64encode(f"{client['client_id']}:{client['client_secret']}".encode()).decode()
    else:
        form = {"client_id": client["client_id"], "client_secret": client["client_secret"], **form}
    return call("POST", f"{oauth['root']}/oauth/token", form=form, headers=headers)


def test_the_code_flow_refresh_and_expiry(api, ctl, oauth):
    redirect = consent(oauth, "catalog:read", "allow")
    tokens = token(oauth, grant_type="authorization_code", code=redirect["code"], redirect_uri=oauth["redirect_uri"])
    assert (tokens.status, tokens.body["expires_in"], redirect["state"]) == (200, 3600, "s1")
    app = api.with_token(tokens.body["access_token"])
    assert (outcome(app.get("/products", limit=1)), outcome(app.send("POST", "/brands", {"name": "F"}))) == ((200,), (403, "INSUFFICIENT_SCOPE"))
    ctl.advance(61 * 60)
    assert outcome(app.get("/me")) == (401, "UNAUTHORIZED")
    refreshed = token(oauth, basic=True, grant_type="refresh_token", refresh_token=tokens.body["refresh_token"])
    assert (refreshed.status, refreshed.body["refresh_token"]) == (200, tokens.body["refresh_token"])
    assert app.with_token(refreshed.body["access_token"]).get("/me").status == 200


def test_pkce_and_a_code_used_once(oauth):
    verifier = "a-verifier-of-at-least-43-characters-for-pkce-s256"
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    code = consent(oauth, "catalog:read", "allow", code_challenge=challenge, code_challenge_method="S256")["code"]
    exchange = lambda: token(oauth, grant_type="authorization_code", code=code, redirect_uri=oauth["redirect_uri"], code_verifier=verifier)  # noqa: E731
    assert exchange().status == 200
    assert (exchange().status, exchange().body["error"]) == (400, "invalid_grant")


def test_cancel_and_the_consent_pages_refusal(oauth):
    assert consent(oauth, "catalog:read", "cancel") == {"error": "access_denied", "state": "s1"}
    query = {"response_type": "code", "client_id": oauth["client"]["client_id"], "redirect_uri": "https://elsewhere.example/cb"}
    assert call("GET", f"{oauth['root']}/oauth/authorize", query=query).status == 400


def test_the_token_endpoints_refusals_and_its_limit(ctl, oauth):
    wrong = call("POST", f"{oauth['root']}/oauth/token", form={"grant_type": "refresh_token", "refresh_token": "x",
                                                                "client_id": oauth["client"]["client_id"], "client_secret": "wrong"})
    assert (wrong.status, wrong.body["error"]) == (401, "invalid_client")
    assert token(oauth, grant_type="password").body["error"] == "unsupported_grant_type"
    assert token(oauth, grant_type="authorization_code").body["error"] == "invalid_request"
    for _ in range(27):  # 30 refusals in 5 minutes with the three above
        assert token(oauth, grant_type="refresh_token", refresh_token="rsr_unknown").status == 400
    limited = token(oauth, grant_type="refresh_token", refresh_token="rsr_unknown")
    assert (limited.status, limited.body["error"]) == (429, "invalid_request")


def test_a_fault_to_retry_and_a_retry_while_the_first_is_in_progress(api, ctl, demo):
    ctl("POST", "/faults", {"method": "GET", "path": f"/{demo['prefix']}/v1/products", "status": 500, "times": 1})
    assert [outcome(api.get("/products", limit=1)) for _ in range(2)] == [(500, "INTERNAL"), (200,)]
    fault = ctl("POST", "/faults", {"method": "POST", "path": f"/{demo['prefix']}/v1/brands", "hold": True, "times": 1})
    first = []
    worker = threading.Thread(target=lambda: first.append(api.send("POST", "/brands", {"name": "Fjord"}, key="fjord")))
    worker.start()
    while ctl("GET", "/faults")[0]["held"] == 0:
        pass
    assert outcome(api.send("POST", "/brands", {"name": "Fjord"}, key="fjord")) == (409, "IDEMPOTENCY_IN_PROGRESS")
    ctl("POST", f"/faults/{fault['id']}/release")
    worker.join()
    assert first[0].status == 201
