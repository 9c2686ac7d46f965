// The Plumber quest for teams (and the form that starts a quest): /quest without an id
// uploads a level; /quest?id=ID joins the quest with a team name, then reveals segments by
// the codes found at the city's locations and sends the letters along the pipe.
// The team's secret token (from the server, when the team joins) is kept in this browser
// (localStorage "boardlab.quest.ID"); the share link carries it after '#', so another phone
// of the team opens the same team. API: boardlab/web/api_quest.py.

import { drawGrid } from "./quest-grid.js";

const i18n = globalThis.BoardlabI18n;
const t = (key, params) => i18n.t(key, params);
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const questId = params.get("id");
const page = { quest: null, team: null, token: null, fresh: null };

function storageKey() {
  return `boardlab.quest.${questId}`;
}

function remember(token) {
  page.token = token;
  try {
    localStorage.setItem(storageKey(), token);
  } catch (_) { /* private mode: the token lasts for this page only */ }
}

function remembered() {
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("team");
  if (fromLink) {
    remember(fromLink);
    history.replaceState(null, "", location.pathname + location.search);
    return fromLink;
  }
  try {
    return localStorage.getItem(storageKey());
  } catch (_) {
    return null;
  }
}

function showError(error) {
  $("error").textContent = error ? (error.message || String(error)) : "";
}

async function api(path, body, token) {
  const options = { headers: {} };
  if (body !== undefined) {
    options.method = "POST";
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  if (token) options.headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, options);
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    data = { error: `${response.status} ${response.statusText}` };
  }
  if (!response.ok) {
    const error = new Error(i18n.errorText(data, `${response.status} ${response.statusText}`));
    error.status = response.status;
    error.body = data;
    throw error;
  }
  return data;
}

// -- a new quest ---------------------------------------------------------------------------
function startNew() {
  $("new-quest").hidden = false;
  $("level-file").addEventListener("change", async () => {
    const file = $("level-file").files[0];
    if (!file) return;
    $("level-text").value = await file.text();
    if (/\.csv$/i.test(file.name)) $("level-format").value = "csv";
    if (!$("quest-name").value) $("quest-name").value = file.name.replace(/\.[^.]*$/, "");
  });
  $("new-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    showError(null);
    $("create").disabled = true;
    try {
      const made = await api("/api/quests", { name: $("quest-name").value,
        level: $("level-text").value, format: $("level-format").value });
      const base = `${location.origin}/quest`;
      const organiser = `${base}/organiser?id=${encodeURIComponent(made.quest.id)}` +
        `#key=${encodeURIComponent(made.key)}`;
      const team = `${base}?id=${encodeURIComponent(made.quest.id)}`;
      $("organiser-link").href = organiser;
      $("organiser-link").textContent = organiser;
      $("team-link").href = team;
      $("team-link").textContent = team;
      $("created").hidden = false;
      $("new-form").hidden = true;
    } catch (error) {
      showError(error);
    } finally {
      $("create").disabled = false;
    }
  });
}

// -- a team --------------------------------------------------------------------------------
function render() {
  const { quest, team } = page;
  $("join").hidden = team !== null;
  $("play").hidden = team === null;
  i18n.setText($("join-title"), "questJoinTitle", { name: quest.name });
  if (!team) return;
  i18n.setText($("team-title"), "questTeamTitle", { team: team.name, name: quest.name });
  drawGrid($("grid"), quest.rows, quest.cols, team.found,
    t("questGridLabel", { found: team.found.length, total: quest.segments }), page.fresh);
  i18n.setText($("found-count"), "questFound", { found: team.found.length,
    total: quest.segments });
  const share = `${location.origin}/quest?id=${encodeURIComponent(quest.id)}` +
    `#team=${encodeURIComponent(page.token)}`;
  $("share-link").href = share;
  $("share-link").textContent = share;
  if (team.finished_at !== null) {
    const result = $("answer-result");
    result.className = "ok";
    i18n.setText(result, "questFinished", { time: i18n.durationIn(i18n.language(),
      team.seconds) });
  }
}

function result(element, key, params, ok) {
  element.className = ok ? "ok" : "refused";
  i18n.setText(element, key, params);
}

function refusal(element, error) {
  element.className = "refused";
  delete element.dataset.i18n;
  element.textContent = error.message;
}

async function startTeam() {
  page.quest = await api(`/api/quests/${encodeURIComponent(questId)}`);
  document.title = `${page.quest.name} · ${t("questTitle")}`;
  const token = remembered();
  if (token) {
    try {
      const mine = await api(`/api/quests/${encodeURIComponent(questId)}/team`, undefined,
        token);
      page.token = token;
      page.team = mine.team;
    } catch (error) {
      if (error.status !== 403) throw error;
    }
  }
  render();
  // Another phone of the team may have found segments meanwhile: look again whenever
  // this page comes back to the front.
  document.addEventListener("visibilitychange", async () => {
    if (document.visibilityState !== "visible" || !page.team) return;
    try {
      page.team = (await api(`/api/quests/${encodeURIComponent(questId)}/team`, undefined,
        page.token)).team;
      render();
    } catch (_) { /* offline for a moment: the next look or code brings it */ }
  });
  $("join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    showError(null);
    try {
      const joined = await api(`/api/quests/${encodeURIComponent(questId)}/teams`,
        { name: $("team-name").value });
      remember(joined.token);
      page.team = joined.team;
      render();
      $("location-code").focus();
    } catch (error) {
      showError(error);
    }
  });
  $("location-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const code = $("location-code").value;
    if (!code.trim()) return;
    try {
      const found = await api(`/api/quests/${encodeURIComponent(questId)}/locations`,
        { code }, page.token);
      page.team = found.team;
      page.fresh = `${found.segment.row}-${found.segment.col}`;
      $("location-code").value = "";
      render();
      result($("location-result"), "questRevealed", { row: found.segment.row,
        col: found.segment.col, letter: found.segment.letter }, true);
    } catch (error) {
      refusal($("location-result"), error);
    }
  });
  $("answer-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const code = $("answer-code").value;
    if (!code.trim()) return;
    try {
      const answer = await api(`/api/quests/${encodeURIComponent(questId)}/answer`,
        { code }, page.token);
      page.team = answer.team;
      if (answer.valid) render();
      else result($("answer-result"), "questWrongAnswer", {}, false);
    } catch (error) {
      refusal($("answer-result"), error);
    }
  });
}

i18n.init();
i18n.onChange(() => { if (page.quest) render(); });
if (questId) {
  startTeam().catch(showError);
} else {
  startNew();
}
