// The tables of a Triplex pack (/triplex/PACK/table): every level with its first solver,
// number of solves and the server-measured median and best times, and the players with
// the levels they solved and their first solves, from GET /api/leaderboard/PACK.
// Names are inserted as text only; the labels come from the one phrase table (i18n.js).
"use strict";
(function () {
  const i18n = globalThis.BoardlabI18n;
  const $ = (id) => document.getElementById(id);
  const pack = decodeURIComponent(location.pathname.split("/").slice(-2)[0]);
  let data = null;

  function cell(row, text, className) {
    const td = document.createElement("td");
    td.textContent = text;
    if (className) td.className = className;
    row.appendChild(td);
    return td;
  }

  function time(seconds) {
    return typeof seconds === "number" ? i18n.durationIn(i18n.language(), seconds) : "—";
  }

  function draw() {
    document.title = i18n.t("tablesTitle") + (data && data.name ? " — " + data.name : "");
    if (!data) return;
    $("pack-name").textContent = data.name || data.pack;
    const levels = $("levels").tBodies[0], players = $("players").tBodies[0];
    levels.textContent = "";
    for (const line of data.levels) {
      const row = levels.insertRow();
      row.dataset.level = String(line.level);
      if (!line.timed) row.className = "untimed";
      cell(row, String(line.level), "number");
      cell(row, line.first ? `${line.first.name} (${i18n.ago(line.first.ago_seconds)})` : "—",
        "first");
      cell(row, String(line.solves), "number solves");
      cell(row, time(line.median_seconds), "number time median");
      cell(row, time(line.best_seconds), "number time best");
      cell(row, String(line.suspect_solves), "number suspect");
    }
    players.textContent = "";
    if (!data.players.length) {
      const row = players.insertRow();
      cell(row, i18n.t("noPlayersYet")).colSpan = 4;
    }
    for (const line of data.players) {
      const row = players.insertRow();
      cell(row, line.name, "name");
      cell(row, String(line.levels), "number levels");
      cell(row, String(line.first_solves), "number firsts");
      cell(row, String(line.solves), "number solves");
    }
  }

  i18n.onChange(draw);
  i18n.init();
  $("back").href = `/triplex/${encodeURIComponent(pack)}`;
  fetch(`/api/leaderboard/${encodeURIComponent(pack)}`).then(async (response) => {
    const body = await response.json().catch(() => null);
    if (!response.ok) throw body || { error: `status ${response.status}` };
    data = body;
    draw();
  }).catch((error) => {
    $("error").textContent = i18n.errorText(error, i18n.t("leaderboardOffline"));
  });
  draw();
})();
