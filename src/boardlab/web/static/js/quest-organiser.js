// The organiser's page of a Plumber quest: every team's progress live (a WebSocket,
// js/live.js) with the grid each team has revealed, and the sheet of location codes to
// print. The organiser's key comes after '#key=' in the page's link (never sent to the
// server in a URL) and goes with every request. API: boardlab/web/api_quest.py.

import { connectLive } from "./live.js";
import { drawGrid } from "./quest-grid.js";

const i18n = globalThis.BoardlabI18n;
const t = (key, params) => i18n.t(key, params);
const $ = (id) => document.getElementById(id);
const questId = new URLSearchParams(location.search).get("id");
const key = new URLSearchParams(location.hash.slice(1)).get("key");
const page = { progress: null, sheet: null, live: "closed" };

function showError(message) {
  $("error").textContent = message || "";
}

async function api(path) {
  const response = await fetch(path, { headers: { Authorization: `Bearer ${key}` } });
  const data = await response.json();
  if (!response.ok) throw new Error(i18n.errorText(data, `${response.status}`));
  return data;
}

function stat(key, params) {
  const item = document.createElement("span");
  i18n.setText(item, key, params);
  return item;
}

function renderTeams() {
  const { progress } = page;
  if (!progress || !progress.quest) return;
  const quest = progress.quest;
  $("quest-name").textContent = quest.name;
  document.title = `${quest.name} · ${t("questOrganiserTitle")}`;
  $("no-teams").hidden = progress.teams.length > 0;
  const cards = progress.teams.map((team) => {
    const card = document.createElement("article");
    card.className = team.finished_at !== null ? "team-card finished" : "team-card";
    card.dataset.team = team.name;
    const name = document.createElement("h3");
    name.textContent = team.name;
    const stats = document.createElement("p");
    stats.className = "stats";
    stats.append(stat("questFound", { found: team.found.length, total: quest.segments }),
      document.createTextNode(" · "),
      stat("questTries", { tries: team.location_tries, wrong: team.wrong_locations }),
      document.createTextNode(" · "),
      stat("questAnswers", { n: team.answer_tries }));
    const finish = document.createElement("p");
    if (team.finished_at !== null) {
      finish.className = "ok";
      i18n.setText(finish, "questTeamFinished", {
        time: i18n.durationIn(i18n.language(), team.seconds),
        clock: new Date(team.finished_at * 1000).toLocaleTimeString(i18n.language()) });
    }
    const grid = document.createElement("div");
    grid.className = "quest-grid";
    drawGrid(grid, quest.rows, quest.cols, team.found,
      t("questTeamGridLabel", { team: team.name, found: team.found.length }));
    card.append(name, stats, finish, grid);
    return card;
  });
  $("teams").replaceChildren(...cards);
}

function renderSheet() {
  if (!page.sheet) return;
  const rows = page.sheet.locations.map((location) => {
    const row = document.createElement("tr");
    const cell = document.createElement("td");
    i18n.setText(cell, "questCellAt", { row: location.row, col: location.col });
    const segment = document.createElement("td");
    i18n.setText(segment, location.kind === "I" ? "questStraight" : "questElbow",
      { letter: location.letter });
    const code = document.createElement("td");
    code.className = "code";
    code.textContent = location.code;
    row.append(cell, segment, code);
    return row;
  });
  $("sheet-rows").replaceChildren(...rows);
}

function renderLive() {
  const badge = $("live-state");
  badge.className = page.live === "open" ? "badge live" : "badge";
  i18n.setText(badge, page.live === "open" ? "questLive" : "questReconnecting");
}

async function start() {
  if (!questId || !key) {
    showError(t("questNoKey"));
    return;
  }
  const team = `${location.origin}/quest?id=${encodeURIComponent(questId)}`;
  $("team-link").href = team;
  $("team-link").textContent = team;
  $("print").addEventListener("click", () => window.print());
  renderLive();
  try {
    page.sheet = await api(`/api/quests/${encodeURIComponent(questId)}/sheet`);
  } catch (error) {
    showError(error.message);
    return;
  }
  renderSheet();
  connectLive(`/api/quests/${encodeURIComponent(questId)}/live`, {
    hello: () => ({ type: "hello", key }),
    onMessage: (message) => {
      if (message.type === "progress") {
        page.progress = message;
        document.body.dataset.teams = String(message.teams.length);
        renderTeams();
      } else if (message.type === "error") {
        showError(i18n.errorText(message, message.error));
      }
    },
    onState: (state) => {
      page.live = state;
      if (state === "open") document.body.dataset.live = "1";
      else delete document.body.dataset.live;
      renderLive();
    },
  });
}

i18n.init();
i18n.onChange(() => { renderTeams(); renderSheet(); renderLive(); });
start();
