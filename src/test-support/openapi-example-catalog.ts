// The example requests of the catalog's and inventory's operations (docs/sdk-authors.md, Examples), each chosen
// to succeed on a fresh demo store with the documented status, and one request that fails, with the failure it
// gets. Names and SKUs come from the demo fixture (scenarios/fixtures/demo-catalog.ts); ids, versions and cursors
// are read from a fresh demo simulator, since they derive from the seed. Mutations touch different rows where
// they can, so the examples mostly work in sequence on one store too.
import { badLimit, badQuery, id, type Lookup, notFound, type Recipe, secondPage } from "./openapi-example-kit.js";

/** Spec, Pagination and polling rules 4: include_deleted=true works only with order=asc. */
const DESC_WITH_DELETED = badQuery("include_deleted=true with order=desc", { order: "desc", include_deleted: true });

/** The five operations of a taxonomy resource (brands, categories, tags, suppliers). */
interface TaxonomyRecipes {
  list: (demo: Lookup) => Promise<Recipe>;
  create: (demo: Lookup) => Promise<Recipe>;
  get: (demo: Lookup) => Promise<Recipe>;
  update: (demo: Lookup) => Promise<Recipe>;
  delete: (demo: Lookup) => Promise<Recipe>;
}

const brands: TaxonomyRecipes = {
  list: (demo) => secondPage(demo, "/brands", 2, badLimit("/brands")),
  create: async () => ({
    name: "fjord",
    summary: "A new brand",
    request: { header: { "Idempotency-Key": "create-brand-fjord" }, body: { name: "Fjord", description: "Knitwear" } },
    error: { code: "CONFLICT", status: 409, summary: "A live brand has this name already", body: { name: "Acme" } },
  }),
  get: async (demo) => ({
    name: "northwind",
    summary: "The brand Northwind",
    request: { path: { id: await id(demo, "/brands", "name", "Northwind") } },
    error: notFound("brand"),
  }),
  update: async (demo) => {
    const acme = await id(demo, "/brands", "name", "Acme");
    return {
      name: "acme",
      summary: "Acme gets a description",
      request: { path: { id: acme }, body: { description: "Kitchen and travel goods" } },
      error: {
        code: "CONFLICT",
        status: 409,
        summary: "Acme renamed to Northwind, a live brand's name",
        path: { id: acme },
        body: { name: "Northwind" },
      },
    };
  },
  delete: async (demo) => ({
    name: "harbourAndCo",
    summary: "Delete the brand Harbour & Co (its products keep no brand)",
    request: { path: { id: await id(demo, "/brands", "name", "Harbour & Co") } },
    error: notFound("brand"),
  }),
};

const categories: TaxonomyRecipes = {
  list: (demo) => secondPage(demo, "/categories", 2, DESC_WITH_DELETED),
  create: async (demo) => ({
    name: "outerwear",
    summary: "A subcategory of Apparel",
    request: {
      header: { "Idempotency-Key": "create-category-outerwear" },
      body: { name: "Outerwear", parent_id: await id(demo, "/categories", "name", "Apparel") },
    },
    error: { code: "VALIDATION_FAILED", status: 400, summary: "A category without a name", body: {} },
  }),
  get: async (demo) => ({
    name: "shirts",
    summary: "Shirts, a subcategory of Apparel",
    request: { path: { id: await id(demo, "/categories", "name", "Shirts") } },
    error: notFound("category"),
  }),
  update: async (demo) => ({
    name: "services",
    summary: "Rename Services",
    request: { path: { id: await id(demo, "/categories", "name", "Services") }, body: { name: "Store Services" } },
    error: {
      code: "CONFLICT",
      status: 409,
      summary: "Rename the system category Other Products",
      path: { id: await id(demo, "/categories", "name", "Other Products") },
      body: { name: "Misc" },
    },
  }),
  delete: async (demo) => ({
    name: "accessories",
    summary: "Delete Accessories (its products move to Other Products)",
    request: { path: { id: await id(demo, "/categories", "name", "Accessories") } },
    error: {
      code: "CONFLICT",
      status: 409,
      summary: "Delete Apparel, which has a live subcategory",
      path: { id: await id(demo, "/categories", "name", "Apparel") },
    },
  }),
};

const tags: TaxonomyRecipes = {
  list: (demo) => secondPage(demo, "/tags", 2, badLimit("/tags")),
  create: async () => ({
    name: "winter",
    summary: "A new tag",
    request: { header: { "Idempotency-Key": "create-tag-winter" }, body: { name: "Winter" } },
    error: { code: "CONFLICT", status: 409, summary: "A live tag has this name already", body: { name: "Summer" } },
  }),
  get: async (demo) => ({
    name: "summer",
    summary: "The tag Summer",
    request: { path: { id: await id(demo, "/tags", "name", "Summer") } },
    error: notFound("tag"),
  }),
  update: async (demo) => ({
    name: "sale",
    summary: "Rename Sale to Clearance (products carrying it get a new version)",
    request: { path: { id: await id(demo, "/tags", "name", "Sale") }, body: { name: "Clearance" } },
    error: notFound("tag", { name: "Clearance" }),
  }),
  delete: async (demo) => ({
    name: "bestseller",
    summary: "Delete the tag Bestseller (removed from every product carrying it)",
    request: { path: { id: await id(demo, "/tags", "name", "Bestseller") } },
    error: notFound("tag"),
  }),
};

const suppliers: TaxonomyRecipes = {
  list: (demo) => secondPage(demo, "/suppliers", 2, badLimit("/suppliers")),
  create: async () => ({
    name: "nordicWool",
    summary: "A new supplier",
    request: { header: { "Idempotency-Key": "create-supplier-nordic-wool" }, body: { name: "Nordic Wool Co" } },
    error: { code: "VALIDATION_FAILED", status: 400, summary: "A supplier with an empty name", body: { name: "" } },
  }),
  get: async (demo) => ({
    name: "pacificTextiles",
    summary: "The supplier Pacific Textiles",
    request: { path: { id: await id(demo, "/suppliers", "name", "Pacific Textiles") } },
    error: notFound("supplier"),
  }),
  update: async (demo) => ({
    name: "acmeWholesale",
    summary: "Rename Acme Wholesale",
    request: {
      path: { id: await id(demo, "/suppliers", "name", "Acme Wholesale") },
      body: { name: "Acme Wholesale Ltd" },
    },
    error: notFound("supplier", { name: "Acme Wholesale Ltd" }),
  }),
  delete: async (demo) => ({
    name: "harbourDistribution",
    summary: "Delete the supplier Harbour Distribution (removed from every product carrying it)",
    request: { path: { id: await id(demo, "/suppliers", "name", "Harbour Distribution") } },
    error: notFound("supplier"),
  }),
};

const taxonomy = (singular: string, plural: string, recipes: TaxonomyRecipes) => ({
  [`list${plural}`]: recipes.list,
  [`create${singular}`]: recipes.create,
  [`get${singular}`]: recipes.get,
  [`update${singular}`]: recipes.update,
  [`delete${singular}`]: recipes.delete,
});

const product = (demo: Lookup, sku: string) => demo.find("/products", "sku", sku);
const outlet = (demo: Lookup, name: string) => id(demo, "/outlets", "name", name);
const reason = (demo: Lookup, name: string) => id(demo, "/inventory/adjustment-reasons", "name", name);

const productRecipes = {
  listProducts: async () => ({
    name: "bySku",
    summary: "Look a product up by its SKU",
    request: { query: { sku: "TOTE-CANVAS", limit: 1, order: "asc", include_deleted: true } },
    error: DESC_WITH_DELETED,
  }),
  createProduct: async (demo: Lookup) => ({
    name: "rainJacket",
    summary: "A product with a brand, a category, a tag, a barcode and a supplier",
    request: {
      header: { "Idempotency-Key": "create-product-jacket-rain" },
      body: {
        sku: "JACKET-RAIN",
        name: "Rain Jacket",
        description: "A packable rain jacket.",
        retail_price: 8900,
        brand_id: await id(demo, "/brands", "name", "Northwind"),
        category_id: await id(demo, "/categories", "name", "Apparel"),
        tags: [{ id: await id(demo, "/tags", "name", "New") }],
        codes: [{ type: "ean", code: "4006381333948" }],
        suppliers: [
          {
            supplier_id: await id(demo, "/suppliers", "name", "Pacific Textiles"),
            is_primary: true,
            supplier_code: "PT-JKT-01",
          },
        ],
        weight: 0.45,
        weight_unit: "kg",
      },
    },
    error: {
      code: "CONFLICT",
      status: 409,
      summary: "A product with the SKU of the Canvas Tote",
      body: { sku: "TOTE-CANVAS", name: "Canvas Tote", retail_price: 3400 },
    },
  }),
  getProduct: async (demo: Lookup) => ({
    name: "canvasTote",
    summary: "The Canvas Tote (TOTE-CANVAS): codes, tags, suppliers and an image",
    request: { path: { id: (await product(demo, "TOTE-CANVAS")).id } },
    error: notFound("product"),
  }),
  updateProduct: async (demo: Lookup) => {
    const bottle = await product(demo, "BOTTLE-STEEL");
    return {
      name: "steelBottle",
      summary: "A new price and tags for the Steel Water Bottle, at its current version",
      request: {
        path: { id: bottle.id },
        body: {
          retail_price: bottle.retail_price + 200,
          tags: [{ id: await id(demo, "/tags", "name", "New") }, { id: await id(demo, "/tags", "name", "Summer") }],
          version: bottle.version,
        },
      },
      error: {
        code: "STALE_VERSION",
        status: 409,
        summary: "The same update at an older version",
        path: { id: bottle.id },
        body: { retail_price: bottle.retail_price + 200, version: "1" },
      },
    };
  },
  deleteProduct: async (demo: Lookup) => ({
    name: "knitScarf",
    summary: "Delete the discontinued Knit Scarf (SCARF-KNIT)",
    request: { path: { id: (await product(demo, "SCARF-KNIT")).id } },
    error: {
      code: "UNPROCESSABLE",
      status: 422,
      summary: "Delete the gift card (GIFTCARD)",
      path: { id: (await product(demo, "GIFTCARD")).id },
    },
  }),
  createVariants: async (demo: Lookup) => {
    const tee = await product(demo, "TEE-CLASSIC");
    const attribute = (name: string) => tee.variant_attributes.find((a: { name: string }) => a.name === name).id;
    const options = (size: string, colour: string) => [
      { attribute_id: attribute("Size"), value: size },
      { attribute_id: attribute("Colour"), value: colour },
    ];
    return {
      name: "largeWhiteTee",
      summary: "Add the size L in White to the Classic Tee (TEE-CLASSIC)",
      request: {
        path: { id: tee.id },
        header: { "Idempotency-Key": "create-variants-tee-l-white" },
        body: { variants: [{ options: options("L", "White"), sku: "TEE-CLASSIC-L-WHITE", retail_price: 2400 }] },
      },
      error: {
        code: "CONFLICT",
        status: 409,
        summary: "Add S in Navy, a combination the Classic Tee has",
        path: { id: tee.id },
        body: { variants: [{ options: options("S", "Navy") }] },
      },
    };
  },
};

const inventoryRecipes = {
  getProductInventory: async (demo: Lookup) => ({
    name: "coffeeBeans",
    summary: "Stock of Coffee Beans (COFFEE-BEANS), in kilograms to 3 decimals, at both outlets",
    request: { path: { id: (await product(demo, "COFFEE-BEANS")).id } },
    error: notFound("product"),
  }),
  setStock: async (demo: Lookup) => ({
    name: "enamelMug",
    summary: "40 Enamel Mugs (MUG-ENAMEL) at Main Street after a delivery, at a new average cost",
    request: {
      path: { id: (await product(demo, "MUG-ENAMEL")).id, outlet_id: await outlet(demo, "Main Street") },
      header: { "Idempotency-Key": "set-stock-mug-main-street" },
      body: { on_hand: 40, reason_id: await reason(demo, "Stock received"), unit_cost: 650 },
    },
    error: {
      code: "NOT_STOCK_TRACKED",
      status: 422,
      summary: "Set stock of Gift Wrapping (SERVICE-GIFTWRAP), which tracks none",
      path: { id: (await product(demo, "SERVICE-GIFTWRAP")).id, outlet_id: await outlet(demo, "Main Street") },
      body: { on_hand: 5 },
    },
  }),
  createAdjustment: async (demo: Lookup) => {
    const line = {
      product_id: (await product(demo, "COFFEE-BEANS")).id,
      outlet_id: await outlet(demo, "Main Street"),
      reason_id: await reason(demo, "Damaged"),
    };
    return {
      name: "damagedCoffee",
      summary: "0.25 kg of Coffee Beans (COFFEE-BEANS) damaged at Main Street",
      request: { header: { "Idempotency-Key": "adjust-coffee-damaged" }, body: { ...line, quantity: -0.25 } },
      error: {
        code: "INSUFFICIENT_STOCK",
        status: 422,
        summary: "1000 kg damaged, more than the stock",
        header: { "Idempotency-Key": "adjust-coffee-too-much" },
        body: { ...line, quantity: -1000 },
      },
    };
  },
  stockBatch: async (demo: Lookup) => {
    const main = await outlet(demo, "Main Street");
    const socks = {
      product_id: (await product(demo, "SOCKS-WOOL")).id,
      outlet_id: await outlet(demo, "Harbour Front"),
    };
    return {
      name: "countAndDelivery",
      summary: "A count of Baseball Caps by SKU at Main Street, and a delivery of Wool Socks at Harbour Front",
      request: {
        header: { "Idempotency-Key": "batch-caps-count-socks-delivery" },
        body: {
          lines: [
            { sku: "CAP-BASEBALL", outlet_id: main, set: { on_hand: 30, reason_id: await reason(demo, "Stocktake") } },
            { ...socks, adjust: { quantity: 12, reason_id: await reason(demo, "Stock received"), unit_cost: 450 } },
          ],
        },
      },
      error: {
        code: "REASON_NOT_ALLOWED",
        status: 422,
        summary: "A line with the disabled reason Theft: no line is written",
        header: { "Idempotency-Key": "batch-socks-theft" },
        body: { lines: [{ ...socks, adjust: { quantity: -1, reason_id: await reason(demo, "Theft") } }] },
      },
    };
  },
};

/** The recipes of the catalog's and inventory's operations, by operationId. */
export const CATALOG_RECIPES: Readonly<Record<string, (demo: Lookup) => Promise<Recipe>>> = {
  ...productRecipes,
  ...taxonomy("Brand", "Brands", brands),
  ...taxonomy("Category", "Categories", categories),
  ...taxonomy("Tag", "Tags", tags),
  ...taxonomy("Supplier", "Suppliers", suppliers),
  ...inventoryRecipes,
};
