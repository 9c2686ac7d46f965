/* Triplex: the game's pure logic, shared by the browser page and the node tests.
 *
 * Rules: docs/triplex.md; codes, encryption and pack JSON: docs/polyomino-pack.md
 * (sections 3, 5, 6 and 7; section 8 is the test vector the tests check this file against).
 * Nothing here touches the DOM, the network or storage: every function takes values and
 * returns values. SHA-256 and HMAC are written out in plain JavaScript because WebCrypto is
 * asynchronous and is missing from some file:// pages; the levels are small, so speed does
 * not matter.
 *
 * Loads as a browser script (defines the global `TriplexLogic`) and as a CommonJS module
 * (`require("./triplex.js")`).
 */
(function (root, factory) {
  "use strict";
  var api = factory();
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.TriplexLogic = api;
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // -- bytes -------------------------------------------------------------------------------

  function utf8(text) {
    return new TextEncoder().encode(text);
  }

  function concat() {
    var total = 0, i;
    for (i = 0; i < arguments.length; i++) total += arguments[i].length;
    var out = new Uint8Array(total), at = 0;
    for (i = 0; i < arguments.length; i++) {
      out.set(arguments[i], at);
      at += arguments[i].length;
    }
    return out;
  }

  function u32(n) {
    return new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
  }

  function fromHex(hex) {
    if (typeof hex !== "string" || hex.length % 2 || /[^0-9a-fA-F]/.test(hex)) {
      throw new Error("expected hex digits");
    }
    var out = new Uint8Array(hex.length / 2);
    for (var i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
    return out;
  }

  function toHex(bytes) {
    var s = "";
    for (var i = 0; i < bytes.length; i++) s += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16);
    return s;
  }

  function fromBase64(text) {
    var binary = atob(text);
    var out = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out;
  }

  // -- SHA-256 (FIPS 180-4) and HMAC (RFC 2104) -------------------------------------------

  var K256 = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2];

  function sha256(message) {
    var h = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c,
      0x1f83d9ab, 0x5be0cd19];
    var length = message.length;
    var padded = new Uint8Array(((length + 9 + 63) >> 6) << 6);
    padded.set(message);
    padded[length] = 0x80;
    var bits = length * 8, end = padded.length;
    padded[end - 1] = bits & 255;
    padded[end - 2] = (bits >>> 8) & 255;
    padded[end - 3] = (bits >>> 16) & 255;
    padded[end - 4] = (bits >>> 24) & 255;
    padded[end - 5] = Math.floor(bits / 4294967296) & 255;
    var w = new Array(64);
    for (var block = 0; block < end; block += 64) {
      for (var t = 0; t < 16; t++) {
        var j = block + 4 * t;
        w[t] = ((padded[j] << 24) | (padded[j + 1] << 16) | (padded[j + 2] << 8) |
                padded[j + 3]) >>> 0;
      }
      for (t = 16; t < 64; t++) {
        var a15 = w[t - 15], a2 = w[t - 2];
        var s0 = ((a15 >>> 7) | (a15 << 25)) ^ ((a15 >>> 18) | (a15 << 14)) ^ (a15 >>> 3);
        var s1 = ((a2 >>> 17) | (a2 << 15)) ^ ((a2 >>> 19) | (a2 << 13)) ^ (a2 >>> 10);
        w[t] = (w[t - 16] + s0 + w[t - 7] + s1) >>> 0;
      }
      var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
      for (t = 0; t < 64; t++) {
        var S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
        var ch = (e & f) ^ (~e & g);
        var t1 = (k + S1 + ch + K256[t] + w[t]) >>> 0;
        var S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
        var maj = (a & b) ^ (a & c) ^ (b & c);
        var t2 = (S0 + maj) >>> 0;
        k = g; g = f; f = e; e = (d + t1) >>> 0;
        d = c; c = b; b = a; a = (t1 + t2) >>> 0;
      }
      h[0] = (h[0] + a) >>> 0; h[1] = (h[1] + b) >>> 0; h[2] = (h[2] + c) >>> 0;
      h[3] = (h[3] + d) >>> 0; h[4] = (h[4] + e) >>> 0; h[5] = (h[5] + f) >>> 0;
      h[6] = (h[6] + g) >>> 0; h[7] = (h[7] + k) >>> 0;
    }
    var out = new Uint8Array(32);
    for (var i = 0; i < 8; i++) out.set(u32(h[i]), 4 * i);
    return out;
  }

  function hmac(key, message) {
    if (typeof key === "string") key = utf8(key);
    if (typeof message === "string") message = utf8(message);
    if (key.length > 64) key = sha256(key);
    var inner = new Uint8Array(64), outer = new Uint8Array(64);
    for (var i = 0; i < 64; i++) {
      var byte = i < key.length ? key[i] : 0;
      inner[i] = byte ^ 0x36;
      outer[i] = byte ^ 0x5c;
    }
    return sha256(concat(outer, sha256(concat(inner, message))));
  }

  // -- codes (docs section 5) ---------------------------------------------------------------

  var ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  var CONFUSABLES = { O: "0", I: "1", L: "1" };
  var CODE_LABEL = utf8("boardlab-polyomino-code\u0000");
  var KEY_LABEL = utf8("boardlab-polyomino-key\u0000");

  /** A code error: `kind` is "malformed" (with `position`, `character` or `length`) or
   * "wrong" (a well-formed code that does not unlock the level). */
  function CodeError(kind, details) {
    var error = new Error(kind === "wrong" ? "wrong code" : "malformed code");
    error.kind = kind;
    for (var key in details || {}) error[key] = details[key];
    return error;
  }

  function formatValue(value) {
    // 40 bits fit a double exactly: no BigInt needed.
    var v = 0;
    for (var i = 0; i < 5; i++) v = v * 256 + value[i];
    var s = "";
    for (i = 0; i < 8; i++) s += ALPHABET[Math.floor(v / Math.pow(2, 35 - 5 * i)) % 32];
    return s.slice(0, 4) + "-" + s.slice(4);
  }

  /** The code of level `n` given the canonical solution of level n - 1 ("" for level 1). */
  function levelCode(salt, n, previousSolution) {
    var digest = hmac(salt, concat(CODE_LABEL, u32(n), utf8(previousSolution || "")));
    return formatValue(digest.subarray(0, 5));
  }

  /** The 5-byte value of a typed code; throws CodeError("malformed") naming the position. */
  function codeValue(text) {
    var kept = [], position = 0;
    for (var i = 0; i < text.length; i++) {
      var ch = text[i];
      position += 1;
      if (ch === " " || ch === "-" || ch === "\t") continue;
      var upper = ch.toUpperCase();
      // Only ASCII letters have a case that maps onto the alphabet (a dotless i must not).
      if (!/^[a-zA-Z0-9]$/.test(ch)) upper = ch;
      upper = CONFUSABLES[upper] || upper;
      if (ALPHABET.indexOf(upper) < 0) {
        throw CodeError("malformed", { position: position, character: ch });
      }
      kept.push(ALPHABET.indexOf(upper));
    }
    if (kept.length !== 8) throw CodeError("malformed", { length: kept.length });
    var v = 0;
    for (i = 0; i < 8; i++) v = v * 32 + kept[i];
    var out = new Uint8Array(5);
    for (i = 4; i >= 0; i--) {
      out[i] = v % 256;
      v = Math.floor(v / 256);
    }
    return out;
  }

  function normalizeCode(text) {
    return formatValue(codeValue(text));
  }

  // -- encryption (docs section 6) ---------------------------------------------------------

  /** Decrypt one sealed level; throws CodeError("wrong") when the tag does not match. */
  function unseal(salt, n, code, data, tag) {
    var key = hmac(salt, concat(KEY_LABEL, u32(n), codeValue(code)));
    var encryptKey = hmac(key, "encrypt"), macKey = hmac(key, "authenticate");
    var expected = hmac(macKey, concat(u32(n), data)).subarray(0, 16);
    var diff = expected.length ^ tag.length;
    for (var i = 0; i < expected.length && i < tag.length; i++) diff |= expected[i] ^ tag[i];
    if (diff !== 0) throw CodeError("wrong");
    var out = new Uint8Array(data.length), block = null;
    for (i = 0; i < data.length; i++) {
      if (i % 32 === 0) block = sha256(concat(encryptKey, u32(i / 32)));
      out[i] = data[i] ^ block[i % 32];
    }
    return out;
  }

  /** A pack object (the JSON file, docs section 7) checked and made ready to unlock. */
  function readPack(obj) {
    if (!obj || obj.format !== "boardlab-polyomino-pack") throw new Error("not a level pack");
    if (obj.version !== 1) throw new Error("unsupported pack version " + obj.version);
    var levels = obj.levels.map(function (entry, i) {
      if (entry.number !== i + 1) throw new Error("level " + (i + 1) + " is misnumbered");
      return { number: entry.number, data: fromBase64(entry.data), tag: fromHex(entry.tag) };
    });
    return { name: obj.name || "", salt: fromHex(obj.salt), saltHex: obj.salt,
      pieces: obj.pieces, levels: levels };
  }

  /** The puzzle of level `n` of a read pack, unlocked with `code` (CodeError if wrong). */
  function unlockLevel(pack, n, code) {
    if (!(n >= 1 && n <= pack.levels.length)) throw new Error("no level " + n);
    var entry = pack.levels[n - 1];
    var plaintext = unseal(pack.salt, n, code, entry.data, entry.tag);
    var puzzle = JSON.parse(new TextDecoder().decode(plaintext));
    puzzle.number = n;
    return puzzle;
  }

  function firstCode(pack) {
    return levelCode(pack.salt, 1, "");
  }

  // -- shapes (docs section 1) --------------------------------------------------------------

  /** Cells translated so the least x and y are 0, sorted row-major. */
  function normalise(cells) {
    var x0 = Infinity, y0 = Infinity;
    cells.forEach(function (c) { x0 = Math.min(x0, c[0]); y0 = Math.min(y0, c[1]); });
    return cells.map(function (c) { return [c[0] - x0, c[1] - y0]; })
      .sort(function (p, q) { return p[1] - q[1] || p[0] - q[0]; });
  }

  function shapeKey(cells) {
    return normalise(cells).map(function (c) { return c[0] + "," + c[1]; }).join(" ");
  }

  /** Image under symmetry k in 0..7: k % 4 quarter turns, then a mirror when k >= 4. */
  function transformed(cells, k) {
    var out = cells.map(function (c) { return [c[0], c[1]]; });
    for (var i = 0; i < k % 4; i++) out = out.map(function (c) { return [-c[1], c[0]]; });
    if (k >= 4) out = out.map(function (c) { return [-c[0], c[1]]; });
    return normalise(out);
  }

  /** The distinct orientations of a shape, itself first (Shape.orientations()). */
  function orientations(cells) {
    var seen = {}, out = [];
    for (var k = 0; k < 8; k++) {
      var shape = transformed(cells, k), key = shapeKey(shape);
      if (!seen[key]) {
        seen[key] = true;
        out.push(shape);
      }
    }
    return out;
  }

  /** The indices of the pieces the player may turn: `puzzle.rotatable` is null (none), an
   * index (one) or a list of indices (several). */
  function turning(puzzle) {
    var r = puzzle.rotatable;
    return r === null || r === undefined ? [] : Array.isArray(r) ? r : [r];
  }

  /** Whether piece `i` of `puzzle` may turn. */
  function isRotatable(puzzle, i) {
    return turning(puzzle).indexOf(i) >= 0;
  }

  /** The shape piece `i` of `puzzle` has in orientation `turn` (only rotatable ones turn). */
  function pieceShape(puzzle, i, turn) {
    var base = normalise(puzzle.pieces[i]);
    if (!isRotatable(puzzle, i) || !turn) return base;
    var all = orientations(base);
    return all[((turn % all.length) + all.length) % all.length];
  }

  // -- placements, cover and solved detection -----------------------------------------------

  /** Board cells of piece `i` placed at `placement` = {x, y, turn}. */
  function placedCells(puzzle, i, placement) {
    return pieceShape(puzzle, i, placement.turn || 0).map(function (c) {
      return [c[0] + placement.x, c[1] + placement.y];
    });
  }

  /** Whether piece `i` fits at `placement`: inside the board, on no other placed piece. */
  function canPlace(puzzle, placements, i, placement) {
    var taken = {};
    placements.forEach(function (p, j) {
      if (p && j !== i) {
        placedCells(puzzle, j, p).forEach(function (c) { taken[c[0] + "," + c[1]] = true; });
      }
    });
    return placedCells(puzzle, i, placement).every(function (c) {
      return c[0] >= 0 && c[1] >= 0 && c[0] < puzzle.width && c[1] < puzzle.height &&
        !taken[c[0] + "," + c[1]];
    });
  }

  /** Whether `groups` (lists of board cells, one per placed piece) solve `puzzle`: every
   * cell covered exactly once and the groups' shapes are the puzzle's multiset, the
   * rotatable piece in any orientation. Identical pieces are interchangeable and the
   * rotatable piece need not have been turned, since only the cover is checked. Returns the
   * canonical solution text ("abbc/aacc") or null. */
  function solvedCover(puzzle, groups) {
    var w = puzzle.width, h = puzzle.height, grid = [];
    for (var y = 0; y < h; y++) grid.push(new Array(w).fill(-1));
    for (var g = 0; g < groups.length; g++) {
      for (var c = 0; c < groups[g].length; c++) {
        var x = groups[g][c][0], yy = groups[g][c][1];
        if (x < 0 || yy < 0 || x >= w || yy >= h || grid[yy][x] !== -1) return null;
        grid[yy][x] = g;
      }
    }
    for (y = 0; y < h; y++) if (grid[y].indexOf(-1) >= 0) return null;
    var wanted = {}, free = turning(puzzle);
    puzzle.pieces.forEach(function (cells, i) {
      if (free.indexOf(i) >= 0) return;
      var key = shapeKey(cells);
      wanted[key] = (wanted[key] || 0) + 1;
    });
    var extra = [];
    groups.forEach(function (cells) {
      var key = shapeKey(cells);
      if (wanted[key]) wanted[key] -= 1;
      else extra.push(key);
    });
    for (var key in wanted) if (wanted[key]) return null;
    if (extra.length !== free.length) return null;
    // each extra shape is a rotatable piece turned; the orientations of one free shape
    // are all alike, so matching greedily by them cannot miss a match
    for (var f = 0; f < free.length; f++) {
      var allowed = orientations(puzzle.pieces[free[f]]).map(shapeKey);
      var at = extra.findIndex(function (k) { return allowed.indexOf(k) >= 0; });
      if (at < 0) return null;
      extra.splice(at, 1);
    }
    return canonicalSolution(grid);
  }

  /** solvedCover for the game's placements (one per piece, null when in the tray). */
  function solvedPlacements(puzzle, placements) {
    var groups = [];
    for (var i = 0; i < puzzle.pieces.length; i++) {
      if (!placements[i]) return null;
      groups.push(placedCells(puzzle, i, placements[i]));
    }
    return solvedCover(puzzle, groups);
  }

  var LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

  /** Docs section 3: letters by first appearance row by row, rows joined with "/". */
  function canonicalSolution(grid) {
    var names = new Map();
    return grid.map(function (row) {
      return row.map(function (label) {
        if (!names.has(label)) names.set(label, LETTERS[names.size % LETTERS.length]);
        return names.get(label);
      }).join("");
    }).join("/");
  }

  return {
    utf8: utf8, fromHex: fromHex, toHex: toHex, fromBase64: fromBase64,
    sha256: sha256, hmac: hmac,
    ALPHABET: ALPHABET, levelCode: levelCode, codeValue: codeValue,
    normalizeCode: normalizeCode, unseal: unseal,
    readPack: readPack, unlockLevel: unlockLevel, firstCode: firstCode,
    normalise: normalise, shapeKey: shapeKey, orientations: orientations,
    pieceShape: pieceShape, turning: turning, isRotatable: isRotatable,
    placedCells: placedCells, canPlace: canPlace,
    solvedCover: solvedCover, solvedPlacements: solvedPlacements,
    canonicalSolution: canonicalSolution
  };
});
