"""The catalog: pagination and polling, products and their refusals, idempotency, brands, tags, suppliers and
categories (spec: Product write rules, Delete rules, Pagination and polling rules, Limits)."""

from conftest import Api, outcome, store_of

UNKNOWN_ID = "00000000-0000-4000-8000-000000000000"


def sku_id(api, sku):
    return api.get("/products", sku=sku).body["data"][0]["id"]


def test_pages_of_10_each_row_once_then_polling_the_feed(api):
    first = api.get("/products", limit=10).body
    second = api.get("/products", limit=10, cursor=first["next_cursor"]).body
    assert (len(first["data"]), first["has_more"], len(second["data"]), second["has_more"]) == (10, True, 5, False)
    assert len({p["id"] for p in first["data"] + second["data"]}) == 15
    idle = api.get("/products", cursor=second["next_cursor"]).body
    assert (idle["data"], idle["next_cursor"], idle["has_more"]) == ([], None, False)
    made = api.send("POST", "/products", {"name": "Travel Mug", "retail_price": 1800}).body["data"]
    assert [p["id"] for p in api.get("/products", cursor=second["next_cursor"]).body["data"]] == [made["id"]]


def test_desc_is_one_page_and_bad_list_queries_answer_400(api):
    desc = api.get("/products", order="desc", limit=5).body
    assert (len(desc["data"]), desc["next_cursor"], desc["has_more"]) == (5, None, False)
    assert outcome(api.get("/products", order="desc", include_deleted=True)) == (400, "VALIDATION_FAILED")
    garbage = api.get("/products", cursor="garbage")
    assert (garbage.status, [f["field"] for f in garbage.body["error"]["fields"]]) == (400, ["cursor"])


def test_a_product_lives_and_dies_and_leaves_a_tombstone(api):
    made = api.send("POST", "/products", {"sku": "JACKET-RAIN", "name": "Rain Jacket", "retail_price": 8900}).body["data"]
    assert api.get(f"/products/{made['id']}").body["data"] == made
    updated = api.send("PATCH", f"/products/{made['id']}", {"retail_price": 9900, "version": made["version"]})
    assert (updated.status, updated.body["data"]["retail_price"]) == (200, 9900)
    stale = api.send("PATCH", f"/products/{made['id']}", {"name": "X", "version": made["version"]})
    assert outcome(stale) == (409, "STALE_VERSION")
    assert outcome(api.send("DELETE", f"/products/{made['id']}")) == (204,)
    assert outcome(api.send("DELETE", f"/products/{made['id']}")) == (404, "NOT_FOUND")
    tombstone = next(r for r in api.all("/products", include_deleted=True) if r["id"] == made["id"])
    assert sorted(tombstone) == ["deleted_at", "id", "version"]


def test_product_refusals(api, ctl, demo):
    create = lambda body: outcome(api.send("POST", "/products", body))  # noqa: E731
    assert create({"sku": "TOTE-CANVAS", "name": "T", "retail_price": 1}) == (409, "CONFLICT")
    assert create({"name": "X", "retail_price": 1, "brand_id": UNKNOWN_ID}) == (422, "UNPROCESSABLE")
    assert create({"name": "X", "retail_price": 1, "tags": [{"id": UNKNOWN_ID}]}) == (400, "VALIDATION_FAILED")
    assert outcome(api.send("DELETE", f"/products/{sku_id(api, 'GIFTCARD')}")) == (422, "UNPROCESSABLE")
    assert outcome(api.send("DELETE", f"/products/{sku_id(api, 'TOTE-CANVAS')}")) == (409, "CONFLICT")
    ctl("PATCH", f"/stores/{demo['prefix']}", {"product_limit": 15})
    assert create({"name": "One more", "retail_price": 1}) == (402, "PRODUCT_LIMIT_REACHED")


def test_images_a_failed_download_saves_the_product_and_11_image_writes_a_minute_are_refused(api, ctl):
    ctl("POST", "/images", {"url": "https://images.example/broken.png", "outcome": "fail"})
    failed = api.send("POST", "/products", {"name": "Lamp", "retail_price": 1, "image_url": "https://images.example/broken.png"})
    assert (outcome(failed), failed.body["data"]["name"]) == ((422, "IMAGE_FETCH_FAILED"), "Lamp")
    for n in range(9):
        assert api.send("POST", "/products", {"name": f"P{n}", "retail_price": 1, "image_url": f"https://images.example/{n}.png"}).status == 201
    assert outcome(api.send("POST", "/products", {"name": "P", "retail_price": 1, "image_url": "https://images.example/x.png"})) == (429, "RATE_LIMITED")
    ctl.advance(60)
    assert api.send("POST", "/products", {"name": "P", "retail_price": 1, "image_url": "https://images.example/x.png"}).status == 201


def test_variants(api):
    tee = api.get(f"/products/{sku_id(api, 'TEE-CLASSIC')}").body["data"]
    size, colour = (a["id"] for a in tee["variant_attributes"])
    variant = lambda s, c: {"variants": [{"options": [{"attribute_id": size, "value": s}, {"attribute_id": colour, "value": c}]}]}  # noqa: E731
    assert api.send("POST", f"/products/{tee['id']}/variants", variant("L", "White")).status == 201
    assert outcome(api.send("POST", f"/products/{tee['id']}/variants", variant("S", "Navy"))) == (409, "CONFLICT")
    assert outcome(api.send("DELETE", f"/products/{tee['id']}")) == (409, "CONFLICT")


def test_idempotency_replay_reuse_refusal_replay_and_key_format(api, ctl):
    first = api.send("POST", "/brands", {"name": "Fjord"}, key="fjord")
    again = api.send("POST", "/brands", {"name": "Fjord"}, key="fjord")
    assert (again.headers.get("Idempotent-Replayed"), again.body) == ("true", first.body)
    assert outcome(api.send("POST", "/brands", {"name": "Ebb"}, key="fjord")) == (422, "IDEMPOTENCY_KEY_REUSED")
    refusals = [api.send("POST", "/tags", {"name": "Summer"}, key="dup") for _ in range(2)]
    assert [(outcome(r), r.headers.get("Idempotent-Replayed")) for r in refusals] == [((409, "CONFLICT"), None), ((409, "CONFLICT"), "true")]
    assert outcome(api.send("POST", "/tags", {"name": "Autumn"}, key="has spaces")) == (400, "VALIDATION_FAILED")
    ctl.advance(24 * 3600 + 1)
    assert api.send("POST", "/brands", {"name": "Ebb"}, key="fjord").status == 201


def test_brands_tags_and_suppliers(api):
    for path, name, taken in [("/brands", "Fjord", "Northwind"), ("/tags", "Winter", "Summer"), ("/suppliers", "Nordic Wool", None)]:
        made = api.send("POST", path, {"name": name}).body["data"]
        assert api.get(f"{path}/{made['id']}").body["data"]["name"] == name
        if taken:
            assert outcome(api.send("POST", path, {"name": taken})) == (409, "CONFLICT")
            assert outcome(api.send("PATCH", f"{path}/{made['id']}", {"name": taken})) == (409, "CONFLICT")
        assert api.send("PATCH", f"{path}/{made['id']}", {"name": name + " 2"}).body["data"]["name"] == name + " 2"
        assert outcome(api.send("DELETE", f"{path}/{made['id']}")) == (204,)
        assert outcome(api.get(f"{path}/{made['id']}")) == (404, "NOT_FOUND")


def test_categories(api):
    ids = {c["name"]: c["id"] for c in api.all("/categories")}
    made = api.send("POST", "/categories", {"name": "Outerwear", "parent_id": ids["Apparel"]}).body["data"]
    assert outcome(api.send("POST", "/categories", {"name": "X", "parent_id": UNKNOWN_ID})) == (422, "UNPROCESSABLE")
    assert outcome(api.send("PATCH", f"/categories/{made['id']}", {"parent_id": UNKNOWN_ID})) == (422, "UNPROCESSABLE")
    assert outcome(api.send("PATCH", f"/categories/{ids['Apparel']}", {"parent_id": made["id"]})) == (409, "CONFLICT")
    assert outcome(api.send("DELETE", f"/categories/{ids['Other Products']}")) == (409, "CONFLICT")
    assert outcome(api.send("DELETE", f"/categories/{made['id']}")) == (204,)


def test_an_unknown_path_and_another_stores_key(api, sandbox):
    assert outcome(api.get("/no-such-path")) == (404, "NOT_FOUND")
    assert outcome(api.with_token(store_of(sandbox, "other")["key"]).get("/products")) == (401, "UNAUTHORIZED")
    assert outcome(Api(store_of(sandbox, "lite")["base_url"], store_of(sandbox, "lite")["key"]).get("/me")) == (402, "PLAN_REQUIRED")
