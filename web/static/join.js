/* The join page: proves the PIN without sending it (see web/challenge.py).
 *
 * proof = HMAC-SHA256(key = SHA-256(salt + ":" + PIN), message = nonce), in hex. SHA-256 and HMAC are written
 * here in plain JavaScript: the browser's own (crypto.subtle) exists only on https pages and on localhost, and
 * the table is often plain http on the LAN. Checked against Python's hashlib by tests/web/test_join_token.py.
 * A native ES module (strict, and nothing it defines reaches ``window``).
 */

const JantakuHash = (() => {
  const K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ]);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));

  /** SHA-256 of the bytes ``data`` (a Uint8Array), as a Uint8Array of 32. */
  function sha256(data) {
    const bitLength = data.length * 8;
    const padded = new Uint8Array(((data.length + 9 + 63) >> 6) << 6);
    padded.set(data);
    padded[data.length] = 0x80;
    const view = new DataView(padded.buffer);
    view.setUint32(padded.length - 8, Math.floor(bitLength / 0x100000000));
    view.setUint32(padded.length - 4, bitLength >>> 0);
    const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
    const w = new Uint32Array(64);
    for (let off = 0; off < padded.length; off += 64) {
      for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + 4 * i);
      for (let i = 16; i < 64; i++) {
        const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
        const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
        w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
      }
      let [a, b, c, d, e, f, g, k] = h;
      for (let i = 0; i < 64; i++) {
        const t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
        const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
        k = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
      }
      [a, b, c, d, e, f, g, k].forEach((v, i) => { h[i] = (h[i] + v) >>> 0; });
    }
    const out = new Uint8Array(32);
    const outView = new DataView(out.buffer);
    h.forEach((v, i) => outView.setUint32(4 * i, v));
    return out;
  }

  /** HMAC-SHA256 of ``message`` under ``key`` (both Uint8Array), as a Uint8Array of 32. */
  function hmacSha256(key, message) {
    let block = key.length > 64 ? sha256(key) : key;
    const padded = new Uint8Array(64);
    padded.set(block);
    const inner = new Uint8Array(64 + message.length);
    const outer = new Uint8Array(64 + 32);
    for (let i = 0; i < 64; i++) { inner[i] = padded[i] ^ 0x36; outer[i] = padded[i] ^ 0x5c; }
    inner.set(message, 64);
    outer.set(sha256(inner), 64);
    return sha256(outer);
  }

  const utf8 = (text) => new TextEncoder().encode(text);
  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

  /** The join page's proof of ``pin`` for the server's ``salt`` and one-time ``nonce``. */
  function pinProof(pin, salt, nonce) {
    return hex(hmacSha256(sha256(utf8(salt + ":" + pin)), utf8(nonce)));
  }

  return { sha256, hmacSha256, pinProof, hex, utf8 };
})();

(() => {
  const form = document.getElementById("pin-form");
  if (!form) return;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const pin = document.getElementById("pin").value.trim();
    try {
      const r = await fetch(form.dataset.challenge, { cache: "no-store", credentials: "same-origin" });
      if (!r.ok) throw new Error("the table did not answer (" + r.status + ")");
      const { nonce, salt } = await r.json();
      form.elements.nonce.value = nonce;
      form.elements.proof.value = JantakuHash.pinProof(pin, salt, nonce);
      form.submit();  // the PIN field has no name: only the nonce and the proof are posted
    } catch (err) {
      let box = form.querySelector(".error");
      if (!box) { box = document.createElement("p"); box.className = "error"; form.prepend(box); }
      box.textContent = "Could not join: " + err.message;
    }
  });
})();
