import { describe, expect, it } from "vitest";
import { makeSim } from "../test-support/sim.js";
import { bindAddress, ExposedControlError, isLoopback } from "./exposure.js";

// docs/interfaces.md, Library (`listen`): on an address other machines can reach, the control plane must have a
// token, be off, or be opened on purpose (`insecureControl`); else `listen` refuses and nothing listens.

describe("docs/interfaces.md, Library: which addresses are loopback", () => {
  it.each(["127.0.0.1", "127.1.2.3", "127.255.255.255", "::1", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1"])(
    "%s is loopback",
    (address) => expect(isLoopback(address)).toBe(true),
  );

  it.each(["0.0.0.0", "::", "", "10.0.0.1", "192.168.1.10", "128.0.0.1", "::2", "::ffff:10.0.0.1", "localhost"])(
    "%j is not (a name is resolved first)",
    (address) => expect(isLoopback(address)).toBe(false),
  );

  it("a name binds the address it resolves to: localhost, a loopback one; an address binds itself", async () => {
    expect(isLoopback(await bindAddress("localhost"))).toBe(true);
    expect(await bindAddress("0.0.0.0")).toBe("0.0.0.0");
    expect(await bindAddress("::")).toBe("::");
    expect(await bindAddress("")).toBe("");
  });
});

describe("docs/interfaces.md, Library: listen beyond loopback", () => {
  it.each([
    ["0.0.0.0", "0.0.0.0"],
    ["::", "::"],
    ["", "every address"],
  ])(
    "listen(0, %j) with an open control plane rejects with an ExposedControlError, and nothing listens",
    async (host, place) => {
      const sim = makeSim();
      const listening = sim.listen(0, host);
      await expect(listening).rejects.toThrow(ExposedControlError);
      await expect(listening).rejects.toThrow(
        `Refusing to listen on ${place}: it is not a loopback address, and the /_sim control plane, which hands out every API key, client secret and password and can reset the simulator, has no token. Set the controlToken option, control: false, or insecureControl: true to serve it open anyway.`,
      );
      expect(sim.url).toBeUndefined();
    },
  );

  it("on loopback (a name resolving to it, or any of 127.0.0.0/8) it listens as before", async () => {
    for (const host of ["localhost", "127.0.0.2"]) {
      const sim = makeSim();
      const { url } = await sim.listen(0, host);
      expect(isLoopback(new URL(url).hostname)).toBe(true);
      expect((await fetch(`${url}/_sim/health`)).status).toBe(200);
      await sim.close();
    }
  });

  it.each([
    ["a control token", { controlToken: "exposure-test-token-0123456789" }],
    ["the control plane off", { control: false }],
    ["insecureControl", { insecureControl: true }],
  ])("with %s it listens on 0.0.0.0", async (_name, options) => {
    const sim = makeSim(options);
    const { url } = await sim.listen(0, "0.0.0.0");
    expect(url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
    await sim.close();
  });
});
