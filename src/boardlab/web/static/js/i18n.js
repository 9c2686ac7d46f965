/* Every page in English, Russian, French, German and Chinese: the one phrase table of the
 * lobby, the game page, the pipes page and the Triplex page (which inlines this file, with
 * phrases.js, into its offline export).
 *
 * After the seed article "Интернационализация и локализации": one table of phrases with a
 * translation per language; a phrase that depends on a number is an object of CLDR plural
 * categories (one, few, many, other) chosen by Intl.PluralRules, so Russian gets 1 ход,
 * 2 хода, 5 ходов, 21 ход without hand-written rules. `{name}` in a phrase is replaced by the
 * parameter of that name. A key is written once (a test refuses one defined twice, which
 * would silently keep its last text); a phrase of one page only says so in its key
 * (pipes..., triplex...). What the server names is keyed by its name: "game.connect-four"
 * (a game's title), "about.", "option.", "help.", "choice." (its description and options),
 * "player.black" and "playerOf.black" (a player, and its form in "the move of black"),
 * "bot.", "error.CODE" (the server's errors, web/errors.py). A name without a phrase
 * (a Zillions file's game or player) is shown as the server gives it.
 *
 * The language is the one remembered in localStorage ("boardlab.language"), else the first
 * supported one of navigator.languages, else English. An element marked
 * data-i18n="key" (and data-i18n-params='{"n": 3}') gets its text from the table, and
 * data-i18n-title / data-i18n-placeholder / data-i18n-aria-label its attributes, again
 * whenever the language changes.
 *
 * Loads as a browser script (global `BoardlabI18n`, after phrases.js) and as a CommonJS
 * module (the tests).
 */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("./phrases.js"));
  } else {
    root.BoardlabI18n = factory(root.BoardlabPhrases);
  }
})(typeof self !== "undefined" ? self : this, function (P) {
  "use strict";

  var STORAGE_KEY = "boardlab.language";

  // The five languages, in the order the selectors list them (phrases.js).
  var LANGUAGES = P.LANGUAGES;

  var MESSAGES = {
    // --- both pages ---
    language: { en: "Language", ru: "Язык", fr: "Langue", de: "Sprache", zh: "语言" },
    moves: {
      en: { one: "{n} move", other: "{n} moves" },
      ru: { one: "{n} ход", few: "{n} хода", many: "{n} ходов", other: "{n} хода" },
      fr: { one: "{n} coup", other: "{n} coups" },
      de: { one: "{n} Zug", other: "{n} Züge" },
      zh: { other: "{n} 步" }
    },

    // --- the pipe puzzles page ---
    pipesTitle: { en: "Plumber", ru: "Водопроводчик", fr: "Plombier", de: "Klempner",
      zh: "水管工" },
    pipesTitleLevel: { en: "Plumber: {name}", ru: "Водопроводчик: {name}",
      fr: "Plombier : {name}", de: "Klempner: {name}", zh: "水管工：{name}" },
    pipesHelp: {
      en: "Click a segment to turn it by 90 degrees (a straight has two positions, an elbow " +
        "four). Lead the water from the tap to the drain; the letters along the pipe are " +
        "the code.",
      ru: "Щёлкните по трубе, чтобы повернуть её на 90 градусов (у прямой два положения, у " +
        "колена четыре). Проведите воду от крана к стоку; буквы вдоль трубы и есть код.",
      fr: "Cliquez sur un tuyau pour le tourner de 90 degrés (un droit a deux positions, un " +
        "coude quatre). Menez l'eau du robinet à l'évacuation ; les lettres le long du " +
        "tuyau forment le code.",
      de: "Klicke auf ein Rohrstück, um es um 90 Grad zu drehen (ein gerades hat zwei " +
        "Stellungen, ein Knie vier). Leite das Wasser vom Hahn zum Abfluss; die Buchstaben " +
        "entlang des Rohrs sind der Code.",
      zh: "点击管段可将其旋转 90 度（直管有两个位置，弯管有四个）。把水从水龙头引到排水口；" +
        "沿途管道上的字母就是密码。"
    },
    pipesLevel: { en: "level", ru: "уровень", fr: "niveau", de: "Level", zh: "关卡" },
    pipesScramble: { en: "scramble again", ru: "перемешать снова", fr: "mélanger à nouveau",
      de: "neu mischen", zh: "重新打乱" },
    pipesScrambleHelp: { en: "start again from another scramble",
      ru: "начать заново с другого перемешивания", fr: "recommencer avec un autre mélange",
      de: "mit einer anderen Mischung neu beginnen", zh: "从另一种打乱状态重新开始" },
    pipesRandom: { en: "random", ru: "случайный", fr: "aléatoire", de: "zufällig",
      zh: "随机" },
    pipesSize: { en: "size", ru: "размер", fr: "taille", de: "Größe", zh: "尺寸" },
    pipesNewRandom: { en: "new random level", ru: "новый случайный уровень",
      fr: "nouveau niveau aléatoire", de: "neues Zufallslevel", zh: "新的随机关卡" },
    pipesInfo: { en: "level {id}, scramble {seed}", ru: "уровень {id}, перемешивание {seed}",
      fr: "niveau {id}, mélange {seed}", de: "Level {id}, Mischung {seed}",
      zh: "关卡 {id}，打乱 {seed}" },
    pipesSolutions: {
      en: { one: "{n} solution", other: "{n} solutions" },
      ru: { one: "{n} решение", few: "{n} решения", many: "{n} решений", other: "{n} решения" },
      fr: { one: "{n} solution", other: "{n} solutions" },
      de: { one: "{n} Lösung", other: "{n} Lösungen" },
      zh: { other: "{n} 个解" }
    },
    pipesCode: { en: "code:", ru: "код:", fr: "code :", de: "Code:", zh: "密码：" },
    pipesChecking: { en: "the water reaches the drain; checking…",
      ru: "вода дошла до стока; проверяем…", fr: "l'eau atteint l'évacuation ; vérification…",
      de: "das Wasser erreicht den Abfluss; wird geprüft…", zh: "水已到达排水口；正在检查…" },
    pipesRuns: {
      en: { one: "the water runs through {n} segment; turn the segments to reach the drain",
        other: "the water runs through {n} segments; turn the segments to reach the drain" },
      ru: { one: "вода проходит через {n} трубу; поворачивайте трубы, чтобы дойти до стока",
        few: "вода проходит через {n} трубы; поворачивайте трубы, чтобы дойти до стока",
        many: "вода проходит через {n} труб; поворачивайте трубы, чтобы дойти до стока",
        other: "вода проходит через {n} трубы; поворачивайте трубы, чтобы дойти до стока" },
      fr: { one: "l'eau traverse {n} tuyau ; tournez les tuyaux pour atteindre l'évacuation",
        other: "l'eau traverse {n} tuyaux ; tournez les tuyaux pour atteindre l'évacuation" },
      de: { one: "das Wasser fließt durch {n} Rohrstück; drehe die Rohre bis zum Abfluss",
        other: "das Wasser fließt durch {n} Rohrstücke; drehe die Rohre bis zum Abfluss" },
      zh: { other: "水流经 {n} 个管段；旋转管段让水到达排水口" }
    },
    pipesNowhere: { en: "the water goes nowhere; turn the segments to reach the drain",
      ru: "вода никуда не течёт; поворачивайте трубы, чтобы дойти до стока",
      fr: "l'eau ne va nulle part ; tournez les tuyaux pour atteindre l'évacuation",
      de: "das Wasser fließt nirgendwohin; drehe die Rohre bis zum Abfluss",
      zh: "水无处可流；旋转管段让水到达排水口" },
    pipesServerDisagrees: { en: "the server does not see the water reach the drain",
      ru: "сервер не видит, чтобы вода дошла до стока",
      fr: "le serveur ne voit pas l'eau atteindre l'évacuation",
      de: "der Server sieht das Wasser nicht am Abfluss ankommen",
      zh: "服务器认为水没有到达排水口" },
    pipesSolved: { en: "solved", ru: "решено", fr: "résolu", de: "gelöst", zh: "已解决" },
    pipesCheckFailed: { en: "check failed: {error}", ru: "проверка не удалась: {error}",
      fr: "la vérification a échoué : {error}", de: "Prüfung fehlgeschlagen: {error}",
      zh: "检查失败：{error}" },
    pipesCannotLoad: { en: "cannot load level {id}: {error}",
      ru: "не удалось загрузить уровень {id}: {error}",
      fr: "impossible de charger le niveau {id} : {error}",
      de: "Level {id} kann nicht geladen werden: {error}", zh: "无法加载关卡 {id}：{error}" },
    pipesCannotList: { en: "cannot list the levels: {error}",
      ru: "не удалось получить список уровней: {error}",
      fr: "impossible de lister les niveaux : {error}",
      de: "die Level können nicht aufgelistet werden: {error}", zh: "无法列出关卡：{error}" },

    // --- the lobby ---
    intro: {
      en: "Abstract board games and puzzles. Pick a game, set its options and players, " +
        "and play in the browser.",
      ru: "Абстрактные настольные игры и головоломки. Выберите игру, настройте её параметры " +
        "и игроков и играйте в браузере.",
      fr: "Jeux de plateau abstraits et casse-tête. Choisissez un jeu, ses options et ses " +
        "joueurs, et jouez dans le navigateur.",
      de: "Abstrakte Brettspiele und Rätsel. Wähle ein Spiel, stelle Optionen und Spieler " +
        "ein und spiele im Browser.",
      zh: "抽象棋盘游戏和益智谜题。选择一个游戏，设置选项和玩家，然后在浏览器中开始游戏。"
    },
    resume: { en: "Resume your last match.", ru: "Продолжить последнюю партию.",
      fr: "Reprendre votre dernière partie.", de: "Letzte Partie fortsetzen.",
      zh: "继续上一局。" },
    gamesTitle: { en: "Games", ru: "Игры", fr: "Jeux", de: "Spiele", zh: "游戏" },
    games: {
      en: { one: "{n} game", other: "{n} games" },
      ru: { one: "{n} игра", few: "{n} игры", many: "{n} игр", other: "{n} игры" },
      fr: { one: "{n} jeu", other: "{n} jeux" },
      de: { one: "{n} Spiel", other: "{n} Spiele" },
      zh: { other: "{n} 个游戏" }
    },
    colGame: { en: "game", ru: "игра", fr: "jeu", de: "Spiel", zh: "游戏" },
    colPlayers: { en: "players", ru: "игроки", fr: "joueurs", de: "Spieler", zh: "玩家" },
    colDescription: { en: "description", ru: "описание", fr: "description",
      de: "Beschreibung", zh: "简介" },
    loading: { en: "loading…", ru: "загрузка…", fr: "chargement…", de: "wird geladen…",
      zh: "加载中…" },
    importedTitle: { en: "Imported games", ru: "Импортированные игры", fr: "Jeux importés",
      de: "Importierte Spiele", zh: "导入的游戏" },
    importedHelp: {
      en: "Zillions rule files from this server's games folder; boards are drawn from the " +
        "files' positions, pieces as the first letters of their names.",
      ru: "Файлы правил Zillions из папки игр этого сервера; доски нарисованы по позициям " +
        "из файлов, фигуры — первыми буквами их названий.",
      fr: "Fichiers de règles Zillions du dossier de jeux de ce serveur ; les plateaux sont " +
        "dessinés d'après les positions des fichiers, les pièces par les premières lettres " +
        "de leur nom.",
      de: "Zillions-Regeldateien aus dem Spieleordner dieses Servers; die Bretter werden aus " +
        "den Feldern der Dateien gezeichnet, die Steine als Anfangsbuchstaben ihrer Namen.",
      zh: "来自本服务器游戏文件夹的 Zillions 规则文件；棋盘按文件中的位置绘制，" +
        "棋子显示为其名称的首字母。"
    },
    colFile: { en: "file", ru: "файл", fr: "fichier", de: "Datei", zh: "文件" },
    variant: { en: "variant", ru: "вариант", fr: "variante", de: "Variante", zh: "变体" },
    variantFails: { en: "{title} (does not load)", ru: "{title} (не загружается)",
      fr: "{title} (ne se charge pas)", de: "{title} (lädt nicht)", zh: "{title}（无法加载）" },
    failedFiles: {
      en: { one: "{n} rule file did not load", other: "{n} rule files did not load" },
      ru: { one: "{n} файл правил не загрузился", few: "{n} файла правил не загрузились",
        many: "{n} файлов правил не загрузились", other: "{n} файла правил не загрузились" },
      fr: { one: "{n} fichier de règles ne s'est pas chargé",
        other: "{n} fichiers de règles ne se sont pas chargés" },
      de: { one: "{n} Regeldatei wurde nicht geladen",
        other: "{n} Regeldateien wurden nicht geladen" },
      zh: { other: "{n} 个规则文件未能加载" }
    },
    readingFiles: {
      en: { one: "reading {n} rule file…", other: "reading {n} rule files…" },
      ru: { one: "читается {n} файл правил…", few: "читаются {n} файла правил…",
        many: "читаются {n} файлов правил…", other: "читаются {n} файла правил…" },
      fr: { one: "lecture de {n} fichier de règles…",
        other: "lecture de {n} fichiers de règles…" },
      de: { one: "{n} Regeldatei wird gelesen…", other: "{n} Regeldateien werden gelesen…" },
      zh: { other: "正在读取 {n} 个规则文件…" }
    },
    skippedFiles: {
      en: { one: "{n} more rule file was skipped", other: "{n} more rule files were skipped" },
      ru: { one: "ещё {n} файл правил пропущен", few: "ещё {n} файла правил пропущены",
        many: "ещё {n} файлов правил пропущены", other: "ещё {n} файла правил пропущены" },
      fr: { one: "{n} autre fichier de règles a été ignoré",
        other: "{n} autres fichiers de règles ont été ignorés" },
      de: { one: "{n} weitere Regeldatei wurde übersprungen",
        other: "{n} weitere Regeldateien wurden übersprungen" },
      zh: { other: "另有 {n} 个规则文件被跳过" }
    },
    recentMatches: { en: "Recent matches", ru: "Недавние партии", fr: "Parties récentes",
      de: "Letzte Partien", zh: "最近的对局" },
    colMatch: { en: "match", ru: "партия", fr: "partie", de: "Partie", zh: "对局" },
    colMoves: { en: "moves", ru: "ходы", fr: "coups", de: "Züge", zh: "步数" },
    colResult: { en: "result", ru: "результат", fr: "résultat", de: "Ergebnis", zh: "结果" },
    colUpdated: { en: "updated", ru: "обновлена", fr: "mise à jour", de: "aktualisiert",
      zh: "更新时间" },
    noMatches: { en: "no matches yet", ru: "партий пока нет", fr: "aucune partie pour l'instant",
      de: "noch keine Partien", zh: "还没有对局" },
    inProgress: { en: "in progress", ru: "идёт", fr: "en cours", de: "läuft", zh: "进行中" },
    startedAgo: { en: "started {ago}", ru: "начата {ago}", fr: "commencée {ago}",
      de: "begonnen {ago}", zh: "{ago}开始" },
    rules: { en: "rules", ru: "правила", fr: "règles", de: "Regeln", zh: "规则" },
    rulesOf: { en: "the rules of {name}", ru: "правила игры {name}", fr: "les règles de {name}",
      de: "die Regeln von {name}", zh: "{name} 的规则" },
    close: { en: "close", ru: "закрыть", fr: "fermer", de: "schließen", zh: "关闭" },
    // the rules dialog's link and the rules page (/games/NAME/rules)
    rulesPageLink: { en: "rules page: options and sources",
      ru: "страница правил: параметры и источники", fr: "page des règles : options et sources",
      de: "Regelseite: Optionen und Quellen", zh: "规则页面：选项和来源" },
    rulesPageLinkHelp: {
      en: "the rules, players, options and sources of this game on their own page",
      ru: "правила, игроки, параметры и источники этой игры на отдельной странице",
      fr: "les règles, joueurs, options et sources de ce jeu sur leur propre page",
      de: "Regeln, Spieler, Optionen und Quellen dieses Spiels auf einer eigenen Seite",
      zh: "在单独的页面上查看本游戏的规则、玩家、选项和来源" },
    rulesPagePlay: { en: "play this game", ru: "сыграть в эту игру", fr: "jouer à ce jeu",
      de: "dieses Spiel spielen", zh: "玩这个游戏" },
    rulesPageBack: { en: "back to the lobby", ru: "назад в лобби", fr: "retour au salon",
      de: "zurück zur Lobby", zh: "返回大厅" },
    rulesPagePlayers: { en: "Players", ru: "Игроки", fr: "Joueurs", de: "Spieler", zh: "玩家" },
    rulesPageRules: { en: "Rules", ru: "Правила", fr: "Règles", de: "Regeln", zh: "规则" },
    rulesPageOptions: { en: "Options", ru: "Параметры", fr: "Options", de: "Optionen",
      zh: "选项" },
    rulesPageSource: { en: "Source", ru: "Источник", fr: "Source", de: "Quelle", zh: "来源" },
    rulesPageNoOptions: { en: "This game has no options.", ru: "У этой игры нет параметров.",
      fr: "Ce jeu n'a pas d'options.", de: "Dieses Spiel hat keine Optionen.",
      zh: "此游戏没有选项。" },
    rulesPageNoSource: { en: "No source is given.", ru: "Источник не указан.",
      fr: "Aucune source n'est indiquée.", de: "Keine Quelle angegeben.", zh: "未注明来源。" },
    rulesPageDefault: { en: "default", ru: "по умолчанию", fr: "par défaut", de: "Standard",
      zh: "默认值" },
    rulesPageChoices: { en: "choices", ru: "варианты", fr: "choix", de: "Auswahl",
      zh: "可选值" },
    rulesPageRange: { en: "range", ru: "диапазон", fr: "plage", de: "Bereich", zh: "范围" },
    rulesPageFile: { en: "rule file", ru: "файл правил", fr: "fichier de règles",
      de: "Regeldatei", zh: "规则文件" },
    rulesPageTypeInt: { en: "whole number", ru: "целое число", fr: "nombre entier",
      de: "ganze Zahl", zh: "整数" },
    rulesPageTypeFloat: { en: "number", ru: "число", fr: "nombre", de: "Zahl", zh: "数字" },
    rulesPageTypeStr: { en: "text", ru: "текст", fr: "texte", de: "Text", zh: "文本" },
    rulesPageTypeBool: { en: "yes or no", ru: "да или нет", fr: "oui ou non",
      de: "ja oder nein", zh: "是或否" },
    rulesPageYes: { en: "yes", ru: "да", fr: "oui", de: "ja", zh: "是" },
    rulesPageNo: { en: "no", ru: "нет", fr: "non", de: "nein", zh: "否" },
    rulesPageEmpty: { en: "(empty)", ru: "(пусто)", fr: "(vide)", de: "(leer)", zh: "（空）" },
    noSuchGame: { en: "there is no game {name} on this server",
      ru: "на этом сервере нет игры {name}", fr: "ce serveur n'a pas de jeu {name}",
      de: "auf diesem Server gibt es kein Spiel {name}", zh: "此服务器上没有游戏 {name}" },
    newGame: { en: "new game", ru: "новая игра", fr: "nouvelle partie", de: "neues Spiel",
      zh: "新游戏" },
    newGameOf: { en: "new game: {name}", ru: "новая игра: {name}",
      fr: "nouvelle partie : {name}", de: "neues Spiel: {name}", zh: "新游戏：{name}" },
    newGameHelp: { en: "choose options and players", ru: "выбрать параметры и игроков",
      fr: "choisir les options et les joueurs", de: "Optionen und Spieler wählen",
      zh: "选择选项和玩家" },
    options: { en: "options", ru: "параметры", fr: "options", de: "Optionen", zh: "选项" },
    playersLegend: { en: "players", ru: "игроки", fr: "joueurs", de: "Spieler", zh: "玩家" },
    botStrength: {
      en: "Bot strength is its thinking time per move in seconds (at most 5).",
      ru: "Сила бота — время на обдумывание хода в секундах (не больше 5).",
      fr: "La force d'un bot est son temps de réflexion par coup en secondes (5 au plus).",
      de: "Die Stärke eines Bots ist seine Bedenkzeit pro Zug in Sekunden (höchstens 5).",
      zh: "机器人的强度是它每步的思考时间（秒，最多 5 秒）。"
    },
    startGame: { en: "start game", ru: "начать игру", fr: "commencer", de: "Spiel starten",
      zh: "开始游戏" },
    cancel: { en: "cancel", ru: "отмена", fr: "annuler", de: "abbrechen", zh: "取消" },
    human: { en: "human", ru: "человек", fr: "humain", de: "Mensch", zh: "人类" },
    botKind: { en: "{bot} bot", ru: "бот {bot}", fr: "bot {bot}", de: "Bot {bot}",
      zh: "{bot} 机器人" },
    // a random player's seat (a die): nobody's, its moves drawn by the server
    atRandom: { en: "at random (its moves are drawn)", ru: "случайно (ходы по жребию)",
      fr: "au hasard (ses coups sont tirés au sort)", de: "zufällig (seine Züge werden gelost)",
      zh: "随机（走法随机抽取）" },
    randomPlayer: { en: "{name} (random)", ru: "{name} (случайный)", fr: "{name} (aléatoire)",
      de: "{name} (zufällig)", zh: "{name}（随机）" },
    secondsPerMove: { en: "seconds per move", ru: "секунд на ход", fr: "secondes par coup",
      de: "Sekunden pro Zug", zh: "每步秒数" },
    secondsLabel: { en: "seconds:", ru: "секунд:", fr: "secondes :", de: "Sekunden:",
      zh: "秒数：" },
    puzzles: { en: "Puzzles", ru: "Головоломки", fr: "Casse-tête", de: "Rätsel", zh: "谜题" },
    pipes: { en: "Pipes", ru: "Трубы", fr: "Tuyaux", de: "Rohre", zh: "水管" },
    pipesBlurb: { en: "turn the pipes to lead the water from the tap to the drain",
      ru: "поверните трубы, чтобы провести воду от крана к стоку",
      fr: "tournez les tuyaux pour mener l'eau du robinet à l'évacuation",
      de: "drehe die Rohre, bis das Wasser vom Hahn zum Abfluss fließt",
      zh: "转动水管，把水从水龙头引到排水口" },
    triplexPack: { en: "Triplex: {name}", ru: "Триплекс: {name}", fr: "Triplex : {name}",
      de: "Triplex: {name}", zh: "三联方块：{name}" },
    levels: {
      en: { one: "{n} level", other: "{n} levels" },
      ru: { one: "{n} уровень", few: "{n} уровня", many: "{n} уровней", other: "{n} уровня" },
      fr: { one: "{n} niveau", other: "{n} niveaux" },
      de: { one: "{n} Level", other: "{n} Level" },
      zh: { other: "{n} 关" }
    },
    noPacks: { en: "no Triplex packs on this server", ru: "на сервере нет наборов Триплекса",
      fr: "aucun jeu Triplex sur ce serveur", de: "keine Triplex-Pakete auf diesem Server",
      zh: "此服务器上没有三联方块关卡包" },


    // --- the lobby: playing together ---
    openSeat: { en: "open seat (a friend, or anyone)", ru: "свободное место (друг или кто угодно)",
      fr: "place libre (un ami, ou n'importe qui)", de: "freier Platz (ein Freund oder jemand)",
      zh: "空位（朋友或任何人）" },
    yourName: { en: "your name", ru: "ваше имя", fr: "votre nom", de: "dein Name",
      zh: "你的名字" },
    listPublicly: { en: "list in the lobby (anyone may join or watch)",
      ru: "показать в лобби (любой может присоединиться или смотреть)",
      fr: "afficher dans le salon (tout le monde peut rejoindre ou regarder)",
      de: "in der Lobby zeigen (jeder kann beitreten oder zuschauen)",
      zh: "在大厅公开（任何人都可加入或观看）" },
    clockLabel: { en: "clock", ru: "часы", fr: "pendule", de: "Uhr", zh: "计时" },
    noClock: { en: "no clock", ru: "без часов", fr: "sans pendule", de: "ohne Uhr",
      zh: "不计时" },
    timeControl: { en: "{minutes} min + {increment} s", ru: "{minutes} мин + {increment} с",
      fr: "{minutes} min + {increment} s", de: "{minutes} Min. + {increment} s",
      zh: "{minutes} 分 + {increment} 秒" },
    openGames: { en: "Open games", ru: "Открытые партии", fr: "Parties ouvertes",
      de: "Offene Partien", zh: "等待加入的对局" },
    noOpenGames: { en: "no game is waiting for an opponent",
      ru: "никто не ждёт соперника", fr: "aucune partie n'attend d'adversaire",
      de: "keine Partie wartet auf einen Gegner", zh: "没有等待对手的对局" },
    colCreator: { en: "created by", ru: "создатель", fr: "créée par", de: "erstellt von",
      zh: "创建者" },
    colClock: { en: "clock", ru: "часы", fr: "pendule", de: "Uhr", zh: "计时" },
    join: { en: "join", ru: "присоединиться", fr: "rejoindre", de: "beitreten", zh: "加入" },
    watch: { en: "watch", ru: "смотреть", fr: "regarder", de: "zuschauen", zh: "观看" },
    replay: { en: "replay", ru: "просмотр", fr: "revoir", de: "nachspielen", zh: "回放" },
    yours: { en: "yours", ru: "ваша", fr: "la vôtre", de: "deine", zh: "你的" },
    anonymous: { en: "anonymous", ru: "аноним", fr: "anonyme", de: "anonym", zh: "匿名" },


    // --- the game page ---
    pageTitle: { en: "boardlab game", ru: "boardlab: партия", fr: "boardlab : partie",
      de: "boardlab: Partie", zh: "boardlab 对局" },
    undo: { en: "undo", ru: "отменить ход", fr: "annuler le coup", de: "zurücknehmen",
      zh: "悔棋" },
    undoHelp: {
      en: "take back your last move and the bot replies",
      ru: "вернуть ваш последний ход и ответы бота",
      fr: "reprendre votre dernier coup et les réponses du bot",
      de: "deinen letzten Zug und die Antworten des Bots zurücknehmen",
      zh: "撤回你的上一步以及机器人的回应"
    },
    clearSelection: { en: "clear selection", ru: "снять выделение",
      fr: "effacer la sélection", de: "Auswahl aufheben", zh: "清除选择" },
    clearSelectionHelp: { en: "clear the selection", ru: "снять выделение",
      fr: "effacer la sélection", de: "die Auswahl aufheben", zh: "清除当前选择" },
    downloadRecord: { en: "download record", ru: "скачать запись партии",
      fr: "télécharger la partie", de: "Partie herunterladen", zh: "下载棋谱" },
    chooseMove: { en: "choose a move", ru: "выберите ход", fr: "choisissez un coup",
      de: "wähle einen Zug", zh: "选择一步" },
    move: { en: "move", ru: "ход", fr: "coup", de: "Zug", zh: "走法" },
    notationPlaceholder: { en: "notation, e.g. a1", ru: "нотация, например a1",
      fr: "notation, p. ex. a1", de: "Notation, z. B. a1", zh: "记法，例如 a1" },
    play: { en: "play", ru: "сходить", fr: "jouer", de: "ziehen", zh: "走" },
    legalMoves: { en: "legal moves", ru: "возможные ходы", fr: "coups légaux",
      de: "erlaubte Züge", zh: "合法走法" },
    movesTitle: { en: "Moves", ru: "Ходы", fr: "Coups", de: "Züge", zh: "走法记录" },
    positionText: { en: "position text", ru: "позиция в тексте", fr: "position en texte",
      de: "Stellung als Text", zh: "局面文本" },
    playerN: { en: "player {n}", ru: "игрок {n}", fr: "joueur {n}", de: "Spieler {n}",
      zh: "玩家 {n}" },
    humanPlayer: { en: "{name} (human)", ru: "{name} (человек)", fr: "{name} (humain)",
      de: "{name} (Mensch)", zh: "{name}（人类）" },
    chancePlayer: { en: "{name} (at random)", ru: "{name} (случайно)", fr: "{name} (au hasard)",
      de: "{name} (zufällig)", zh: "{name}（随机）" },
    botPlayer: { en: "{name} ({bot} bot{budget})", ru: "{name} (бот {bot}{budget})",
      fr: "{name} (bot {bot}{budget})", de: "{name} (Bot {bot}{budget})",
      zh: "{name}（{bot} 机器人{budget}）" },
    budgetTime: { en: ", {time}s", ru: ", {time} с", fr: ", {time} s", de: ", {time} s",
      zh: "，{time} 秒" },
    budgetDepth: { en: ", depth {depth}", ru: ", глубина {depth}", fr: ", profondeur {depth}",
      de: ", Tiefe {depth}", zh: "，深度 {depth}" },
    gameOverDraw: { en: "Game over: draw ({score})", ru: "Игра окончена: ничья ({score})",
      fr: "Partie terminée : match nul ({score})", de: "Spiel vorbei: unentschieden ({score})",
      zh: "游戏结束：平局（{score}）" },
    gameOverWinner: { en: "Game over: {name} wins ({score})",
      ru: "Игра окончена: победа {of} ({score})",
      fr: "Partie terminée : victoire {of} ({score})",
      de: "Spiel vorbei: {name} gewinnt ({score})", zh: "游戏结束：{name} 获胜（{score}）" },
    gameOver: { en: "Game over: {score}", ru: "Игра окончена: {score}",
      fr: "Partie terminée : {score}", de: "Spiel vorbei: {score}", zh: "游戏结束：{score}" },
    thinking: { en: "{name} is thinking…", ru: "ход {of}: бот думает…",
      fr: "au tour {of} : le bot réfléchit…", de: "{name} denkt nach…",
      zh: "{name} 正在思考…" },
    toMove: { en: "{name} to move", ru: "ход {of}", fr: "au tour {of}",
      de: "{name} ist am Zug", zh: "轮到 {name}" },
    botToMove: { en: "{name} (bot) to move", ru: "ход {of} (бот)",
      fr: "au tour {of} (bot)", de: "{name} (Bot) ist am Zug", zh: "轮到 {name}（机器人）" },
    chanceToMove: { en: "{name} to move: drawn at random", ru: "ход {of}: по жребию",
      fr: "au tour {of} : tiré au sort", de: "{name} ist am Zug: wird ausgelost",
      zh: "轮到 {name}：随机抽取" },
    collapse: { en: " — collapse {label}: choose square {squares}",
      ru: " — коллапс {label}: выберите клетку {squares}",
      fr: " — effondrement {label} : choisissez la case {squares}",
      de: " — Kollaps {label}: wähle Feld {squares}",
      zh: " —— 坍缩 {label}：选择格子 {squares}" },
    or: { en: " or ", ru: " или ", fr: " ou ", de: " oder ", zh: " 或 " },
    movesOfExactly: { en: "moves of exactly {cells}", ru: "ходы ровно фигурами {cells}",
      fr: "coups de exactement {cells}", de: "Züge genau mit {cells}",
      zh: "恰好移动 {cells} 的走法" },
    noMoveExactly: {
      en: "no move moves exactly {cells}; click a target to grow the group",
      ru: "нет хода ровно фигурами {cells}; щёлкните цель, чтобы расширить группу",
      fr: "aucun coup ne déplace exactement {cells} ; cliquez une cible pour agrandir le groupe",
      de: "kein Zug bewegt genau {cells}; klicke ein Ziel, um die Gruppe zu erweitern",
      zh: "没有恰好移动 {cells} 的走法；点击目标以扩大这组棋子"
    },
    grownGroup: {
      en: "{move} moves {cells}: click the target again (or the move below) to play it",
      ru: "{move} двигает {cells}: щёлкните цель ещё раз (или ход ниже), чтобы сходить",
      fr: "{move} déplace {cells} : cliquez à nouveau la cible (ou le coup ci-dessous) " +
        "pour le jouer",
      de: "{move} bewegt {cells}: klicke das Ziel noch einmal (oder den Zug unten), " +
        "um ihn zu spielen",
      zh: "{move} 会移动 {cells}：再次点击目标（或下面的走法）来走这一步"
    },
    movesWith: { en: "moves with {cells}", ru: "ходы с {cells}", fr: "coups avec {cells}",
      de: "Züge mit {cells}", zh: "包含 {cells} 的走法" },
    movesTo: { en: "moves to {name}", ru: "ходы на {name}", fr: "coups vers {name}",
      de: "Züge nach {name}", zh: "走到 {name} 的走法" },
    noMatch: { en: "no match", ru: "нет партии", fr: "aucune partie", de: "keine Partie",
      zh: "没有对局" },
    startInLobby: { en: "Start a new game in the lobby.", ru: "Начните новую игру в лобби.",
      fr: "Commencez une nouvelle partie dans le salon.",
      de: "Starte ein neues Spiel in der Lobby.", zh: "请在大厅开始新游戏。" },
    noBoard: { en: "This game has no board to draw; play by notation.",
      ru: "У этой игры нет доски для рисования; ходите нотацией.",
      fr: "Ce jeu n'a pas de plateau à dessiner ; jouez en notation.",
      de: "Dieses Spiel hat kein Brett zum Zeichnen; spiele mit Notation.",
      zh: "这个游戏没有可绘制的棋盘；请用记法走棋。" },

    // --- the game page: playing together ---
    seatOpen: { en: "{name}'s seat is open.", ru: "Место {of} свободно.",
      fr: "La place {of} est libre.", de: "Der Platz von {name} ist frei.",
      zh: "{name}的座位空着。" },
    joinAs: { en: "play as {name}", ru: "играть за {of}", fr: "prendre la place {of}",
      de: "als {name} spielen", zh: "执{name}加入" },
    waitingForOpponent: { en: "waiting for an opponent to join",
      ru: "ждём, когда присоединится соперник", fr: "en attente d'un adversaire",
      de: "warte auf einen Gegner", zh: "等待对手加入" },
    inviteLink: { en: "invitation link", ru: "ссылка-приглашение", fr: "lien d'invitation",
      de: "Einladungslink", zh: "邀请链接" },
    copy: { en: "copy", ru: "копировать", fr: "copier", de: "kopieren", zh: "复制" },
    copied: { en: "copied", ru: "скопировано", fr: "copié", de: "kopiert", zh: "已复制" },
    spectating: { en: "you are watching this match", ru: "вы наблюдаете за партией",
      fr: "vous regardez cette partie", de: "du schaust dieser Partie zu",
      zh: "你正在观看这局" },
    resign: { en: "resign", ru: "сдаться", fr: "abandonner", de: "aufgeben", zh: "认输" },
    resignConfirm: { en: "Resign this game?", ru: "Сдаться в этой партии?",
      fr: "Abandonner cette partie ?", de: "Diese Partie aufgeben?", zh: "确定认输吗？" },
    offerDraw: { en: "offer a draw", ru: "предложить ничью", fr: "proposer la nulle",
      de: "Remis anbieten", zh: "提和" },
    askTakeback: { en: "ask to take back", ru: "попросить вернуть ход",
      fr: "demander à reprendre", de: "Zurücknahme erbitten", zh: "请求悔棋" },
    drawOffered: { en: "{name} offers a draw.", ru: "Предложение ничьей от {of}.",
      fr: "Proposition de nulle {of}.", de: "{name} bietet Remis an.", zh: "{name}提和。" },
    takebackAsked: { en: "{name} asks to take back a move.",
      ru: "Просьба вернуть ход от {of}.", fr: "Demande de reprise {of}.",
      de: "{name} möchte einen Zug zurücknehmen.", zh: "{name}请求悔棋。" },
    waitingForAnswer: { en: "waiting for the answer…", ru: "ждём ответа…",
      fr: "en attente de la réponse…", de: "warte auf die Antwort…", zh: "等待对方回应…" },
    accept: { en: "accept", ru: "принять", fr: "accepter", de: "annehmen", zh: "接受" },
    decline: { en: "decline", ru: "отклонить", fr: "refuser", de: "ablehnen", zh: "拒绝" },
    rematch: { en: "rematch", ru: "реванш", fr: "revanche", de: "Revanche", zh: "再来一局" },
    newGameButton: { en: "new game", ru: "новая партия", fr: "nouvelle partie",
      de: "neue Partie", zh: "新对局" },
    reasonTime: { en: "{name} ran out of time.", ru: "У {of} кончилось время.",
      fr: "Le temps {of} est écoulé.", de: "{name} hat die Zeit überschritten.",
      zh: "{name}超时。" },
    reasonResignation: { en: "{name} resigned.", ru: "Сторона {of} сдалась.",
      fr: "Abandon {of}.", de: "{name} hat aufgegeben.", zh: "{name}认输。" },
    reasonAgreement: { en: "Drawn by agreement.", ru: "Ничья по соглашению.",
      fr: "Nulle par accord mutuel.", de: "Remis durch Einigung.", zh: "双方同意和棋。" },
    reconnecting: { en: "connection lost; reconnecting…", ru: "связь потеряна; переподключаемся…",
      fr: "connexion perdue ; reconnexion…", de: "Verbindung verloren; verbinde neu…",
      zh: "连接中断，正在重连…" },
    replayFirst: { en: "first position", ru: "начальная позиция", fr: "position initiale",
      de: "Anfangsstellung", zh: "初始局面" },
    replayBack: { en: "one move back", ru: "на ход назад", fr: "un coup en arrière",
      de: "einen Zug zurück", zh: "后退一步" },
    replayForward: { en: "one move forward", ru: "на ход вперёд", fr: "un coup en avant",
      de: "einen Zug vor", zh: "前进一步" },
    replayLast: { en: "current position", ru: "текущая позиция", fr: "position actuelle",
      de: "aktuelle Stellung", zh: "当前局面" },
    replayAt: { en: "position after {n} of {of} moves", ru: "позиция после {n} из {of} ходов",
      fr: "position après {n} coups sur {of}", de: "Stellung nach {n} von {of} Zügen",
      zh: "第 {n} 步后的局面（共 {of} 步）" },


    // --- the Triplex page (static/triplex; its offline export inlines this file) ---
    triplexTitle: { en: "Triplex", ru: "Триплекс", fr: "Triplex", de: "Triplex", zh: "三联方块" },
    triplexRules: {
      en: "Put all the pieces into the rectangle. Drag them with the mouse or a finger. " +
        "Only the piece marked with a circle can be turned: tap it.",
      ru: "Уложите все фигуры в прямоугольник. Перетаскивайте их мышью или пальцем. " +
        "Вращать можно только фигуру, помеченную кружком: коснитесь её.",
      fr: "Placez toutes les pièces dans le rectangle. Faites-les glisser avec la souris ou " +
        "le doigt. Seule la pièce marquée d'un cercle peut tourner : touchez-la.",
      de: "Lege alle Teile in das Rechteck. Ziehe sie mit der Maus oder dem Finger. " +
        "Nur das Teil mit dem Kreis lässt sich drehen: tippe es an.",
      zh: "把所有方块放进矩形里。用鼠标或手指拖动它们。只有带圆圈的方块可以旋转：点击它。"
    },
    levelOf: {
      en: "Level {n} of {total}", ru: "Уровень {n} из {total}", fr: "Niveau {n} sur {total}",
      de: "Level {n} von {total}", zh: "第 {n} 关，共 {total} 关"
    },
    levelN: { en: "Level {n}", ru: "Уровень {n}", fr: "Niveau {n}", de: "Level {n}",
      zh: "第 {n} 关" },
    time: { en: "Time: {time}", ru: "Время: {time}", fr: "Temps : {time}",
      de: "Zeit: {time}", zh: "用时：{time}" },
    reset: { en: "Back to the tray", ru: "Убрать фигуры", fr: "Tout retirer",
      de: "Alles zurücklegen", zh: "全部放回" },
    next: { en: "Next level", ru: "Следующий уровень", fr: "Niveau suivant",
      de: "Nächstes Level", zh: "下一关" },
    solved: { en: "Solved!", ru: "Решено!", fr: "Résolu !", de: "Gelöst!", zh: "完成！" },
    solvedIn: { en: "Solved in {time}.", ru: "Решено за {time}.", fr: "Résolu en {time}.",
      de: "Gelöst in {time}.", zh: "用时 {time} 完成。" },
    codeFor: { en: "Code of level {n}:", ru: "Код уровня {n}:", fr: "Code du niveau {n} :",
      de: "Code für Level {n}:", zh: "第 {n} 关的代码：" },
    completionCode: { en: "Completion code:", ru: "Код прохождения игры:",
      fr: "Code de fin de jeu :", de: "Abschlusscode:", zh: "通关代码：" },
    writeDown: {
      en: "Write it down: the level number and its code restore your progress on any device.",
      ru: "Запишите его: номер уровня и код восстановят прогресс на любом устройстве.",
      fr: "Notez-le : le numéro du niveau et son code restaurent votre progression " +
        "sur n'importe quel appareil.",
      de: "Schreib ihn auf: Levelnummer und Code stellen deinen Fortschritt auf jedem " +
        "Gerät wieder her.",
      zh: "请记下来：关卡编号和代码可以在任何设备上恢复进度。"
    },
    allSolved: { en: "You have solved every level!", ru: "Вы прошли все уровни!",
      fr: "Vous avez résolu tous les niveaux !", de: "Du hast alle Level gelöst!",
      zh: "你已完成所有关卡！" },
    thisCode: { en: "Code of this level:", ru: "Код этого уровня:",
      fr: "Code de ce niveau :", de: "Code dieses Levels:", zh: "本关代码：" },
    triplexLevels: { en: "Levels", ru: "Уровни", fr: "Niveaux", de: "Level", zh: "关卡" },
    levelsSolved: {
      en: { one: "{n} level solved", other: "{n} levels solved" },
      ru: { one: "{n} уровень решён", few: "{n} уровня решено", many: "{n} уровней решено",
        other: "{n} уровня решено" },
      fr: { one: "{n} niveau résolu", other: "{n} niveaux résolus" },
      de: { one: "{n} Level gelöst", other: "{n} Level gelöst" },
      zh: { other: "已完成 {n} 关" }
    },
    statusSolved: { en: "solved {ago}", ru: "решён {ago}", fr: "résolu {ago}",
      de: "gelöst {ago}", zh: "{ago}完成" },
    statusElsewhere: { en: "solved on another device", ru: "решён на другом устройстве",
      fr: "résolu sur un autre appareil", de: "auf einem anderen Gerät gelöst",
      zh: "已在其他设备上完成" },
    statusOpen: { en: "not solved yet", ru: "ещё не решён", fr: "pas encore résolu",
      de: "noch nicht gelöst", zh: "尚未完成" },
    restore: { en: "Restore progress", ru: "Восстановить прогресс",
      fr: "Restaurer la progression", de: "Fortschritt wiederherstellen", zh: "恢复进度" },
    restoreHelp: {
      en: "Type a level number and the code you wrote down for it.",
      ru: "Введите номер уровня и записанный для него код.",
      fr: "Saisissez un numéro de niveau et le code noté pour ce niveau.",
      de: "Gib eine Levelnummer und den dafür notierten Code ein.",
      zh: "输入关卡编号和你为它记下的代码。"
    },
    levelNumber: { en: "Level number", ru: "Номер уровня", fr: "Numéro du niveau",
      de: "Levelnummer", zh: "关卡编号" },
    code: { en: "Code", ru: "Код", fr: "Code", de: "Code", zh: "代码" },
    restoreButton: { en: "Restore", ru: "Восстановить", fr: "Restaurer",
      de: "Wiederherstellen", zh: "恢复" },
    restored: { en: "Level {n} is unlocked.", ru: "Уровень {n} открыт.",
      fr: "Le niveau {n} est débloqué.", de: "Level {n} ist freigeschaltet.",
      zh: "第 {n} 关已解锁。" },
    wrongCode: {
      en: "This code does not unlock level {n}.",
      ru: "Этот код не открывает уровень {n}.",
      fr: "Ce code ne débloque pas le niveau {n}.",
      de: "Dieser Code schaltet Level {n} nicht frei.",
      zh: "这个代码无法解锁第 {n} 关。"
    },
    badCharacter: {
      en: "Character {position} (“{character}”) is not a code character.",
      ru: "Символ {position} («{character}») не может быть в коде.",
      fr: "Le caractère {position} (« {character} ») n'est pas un caractère de code.",
      de: "Zeichen {position} („{character}“) kommt in Codes nicht vor.",
      zh: "第 {position} 个字符（“{character}”）不是代码字符。"
    },
    badLength: {
      en: { one: "A code has 8 characters, not {n}.",
        other: "A code has 8 characters, not {n}." },
      ru: { one: "В коде 8 символов, а не {n}.", few: "В коде 8 символов, а не {n}.",
        many: "В коде 8 символов, а не {n}.", other: "В коде 8 символов, а не {n}." },
      fr: { one: "Un code a 8 caractères, pas {n}.",
        other: "Un code a 8 caractères, pas {n}." },
      de: { one: "Ein Code hat 8 Zeichen, nicht {n}.",
        other: "Ein Code hat 8 Zeichen, nicht {n}." },
      zh: { other: "代码应有 8 个字符，而不是 {n} 个。" }
    },
    noSuchLevel: {
      en: "There is no level {n}: this pack has levels 1 to {total}.",
      ru: "Уровня {n} нет: в этом наборе уровни с 1 по {total}.",
      fr: "Il n'y a pas de niveau {n} : ce jeu a les niveaux 1 à {total}.",
      de: "Es gibt kein Level {n}: dieses Paket hat die Level 1 bis {total}.",
      zh: "没有第 {n} 关：本关卡包只有第 1 到 {total} 关。"
    },
    damaged: {
      en: "Level {n} cannot be opened: the game file is damaged.",
      ru: "Уровень {n} не открывается: файл игры повреждён.",
      fr: "Impossible d'ouvrir le niveau {n} : le fichier du jeu est endommagé.",
      de: "Level {n} lässt sich nicht öffnen: die Spieldatei ist beschädigt.",
      zh: "无法打开第 {n} 关：游戏文件已损坏。"
    },
    online: { en: "online", ru: "в сети", fr: "en ligne", de: "online", zh: "在线" },
    offline: { en: "offline", ru: "не в сети", fr: "hors ligne", de: "offline", zh: "离线" },
    leaderboard: { en: "Leaderboard", ru: "Таблица рекордов", fr: "Classement",
      de: "Bestenliste", zh: "排行榜" },
    leaderboardOffline: {
      en: "The leaderboard needs a connection to the game server.",
      ru: "Для таблицы рекордов нужно подключение к серверу игры.",
      fr: "Le classement nécessite une connexion au serveur du jeu.",
      de: "Die Bestenliste braucht eine Verbindung zum Spielserver.",
      zh: "排行榜需要连接游戏服务器。"
    },
    triplexYourName: { en: "Your name", ru: "Ваше имя", fr: "Votre nom", de: "Dein Name",
      zh: "你的名字" },
    firstSolver: { en: "First solved by {name}, {ago}.", ru: "Первым решил {name}, {ago}.",
      fr: "Résolu en premier par {name}, {ago}.", de: "Zuerst gelöst von {name}, {ago}.",
      zh: "{name} 最先完成，{ago}。" },
    nobodyYet: { en: "Nobody has solved this level yet.", ru: "Этот уровень ещё никто не решил.",
      fr: "Personne n'a encore résolu ce niveau.", de: "Dieses Level hat noch niemand gelöst.",
      zh: "还没有人完成这一关。" },
    solveCount: {
      en: { one: "Solved {n} time, median time {time}.",
        other: "Solved {n} times, median time {time}." },
      ru: { one: "Решён {n} раз, медианное время {time}.",
        few: "Решён {n} раза, медианное время {time}.",
        many: "Решён {n} раз, медианное время {time}.",
        other: "Решён {n} раза, медианное время {time}." },
      fr: { one: "Résolu {n} fois, temps médian {time}.",
        other: "Résolu {n} fois, temps médian {time}." },
      de: { one: "{n}-mal gelöst, mittlere Zeit {time}.",
        other: "{n}-mal gelöst, mittlere Zeit {time}." },
      zh: { other: "已完成 {n} 次，中位用时 {time}。" }
    },
    submitted: { en: "The leaderboard recorded your solve: {time} by the server's clock.",
      ru: "Решение записано в таблицу рекордов: {time} по часам сервера.",
      fr: "Le classement a enregistré votre solution : {time} selon l'horloge du serveur.",
      de: "Die Bestenliste hat deine Lösung erfasst: {time} nach der Uhr des Servers.",
      zh: "排行榜已记录你的完成：按服务器时钟计 {time}。" },
    seconds: {
      en: { one: "{n} second", other: "{n} seconds" },
      ru: { one: "{n} секунду", few: "{n} секунды", many: "{n} секунд", other: "{n} секунды" },
      fr: { one: "{n} seconde", other: "{n} secondes" },
      de: { one: "{n} Sekunde", other: "{n} Sekunden" },
      zh: { other: "{n} 秒" }
    },
    loadError: {
      en: "The game data in this file is damaged.",
      ru: "Данные игры в этом файле повреждены.",
      fr: "Les données du jeu dans ce fichier sont endommagées.",
      de: "Die Spieldaten in dieser Datei sind beschädigt.",
      zh: "此文件中的游戏数据已损坏。"
    },
    // the server's timing, progress kept on the server and the tables page (issue 16)
    solveCountUntimed: {
      en: { one: "Solved {n} time.", other: "Solved {n} times." },
      ru: { one: "Решён {n} раз.", few: "Решён {n} раза.", many: "Решён {n} раз.",
        other: "Решён {n} раза." },
      fr: { one: "Résolu {n} fois.", other: "Résolu {n} fois." },
      de: { one: "{n}-mal gelöst.", other: "{n}-mal gelöst." },
      zh: { other: "已完成 {n} 次。" }
    },
    bestTime: { en: "Best time {time}.", ru: "Лучшее время {time}.",
      fr: "Meilleur temps {time}.", de: "Bestzeit {time}.", zh: "最佳用时 {time}。" },
    submittedTooFast: {
      en: "The server recorded your solve in {time}: faster than a person can place the " +
        "pieces, so it does not count for first place or the times.",
      ru: "Сервер записал ваше решение за {time}: быстрее, чем человек успевает уложить " +
        "фигуры, поэтому оно не считается ни для первого места, ни для времени.",
      fr: "Le serveur a enregistré votre solution en {time} : plus vite qu'une personne ne " +
        "peut placer les pièces, elle ne compte ni pour la première place ni pour les temps.",
      de: "Der Server hat deine Lösung in {time} erfasst: schneller, als ein Mensch die " +
        "Teile legen kann, daher zählt sie weder für den ersten Platz noch für die Zeiten.",
      zh: "服务器记录你的用时为 {time}：比人放置方块的速度还快，因此不计入首位和用时统计。"
    },
    needName: { en: "Type your name first.", ru: "Сначала введите имя.",
      fr: "Saisissez d'abord votre nom.", de: "Gib zuerst deinen Namen ein.",
      zh: "请先输入你的名字。" },
    serverProgress: { en: "Progress on the server", ru: "Прогресс на сервере",
      fr: "Progression sur le serveur", de: "Fortschritt auf dem Server", zh: "服务器上的进度" },
    serverProgressHelp: {
      en: "Keep your progress on the server under your name and a secret of at least 8 " +
        "characters, and load it on any device. No e-mail; a lost secret cannot be recovered.",
      ru: "Сохраните прогресс на сервере под своим именем и секретом не короче 8 символов " +
        "и загрузите его на любом устройстве. Без e-mail; забытый секрет не восстановить.",
      fr: "Gardez votre progression sur le serveur sous votre nom et un secret d'au moins " +
        "8 caractères, et chargez-la sur n'importe quel appareil. Sans e-mail ; un secret " +
        "perdu ne peut pas être retrouvé.",
      de: "Speichere deinen Fortschritt auf dem Server unter deinem Namen und einem " +
        "Geheimnis aus mindestens 8 Zeichen und lade ihn auf jedem Gerät. Ohne E-Mail; " +
        "ein vergessenes Geheimnis lässt sich nicht wiederherstellen.",
      zh: "用你的名字和至少 8 个字符的密语把进度保存在服务器上，并在任何设备上载入。" +
        "无需电子邮件；密语丢失后无法找回。"
    },
    triplexSecret: { en: "Secret", ru: "Секрет", fr: "Secret", de: "Geheimnis", zh: "密语" },
    saveProgress: { en: "Save on the server", ru: "Сохранить на сервере",
      fr: "Enregistrer sur le serveur", de: "Auf dem Server speichern", zh: "保存到服务器" },
    loadProgress: { en: "Load from the server", ru: "Загрузить с сервера",
      fr: "Charger depuis le serveur", de: "Vom Server laden", zh: "从服务器载入" },
    progressSaved: { en: "The server keeps level {n} for you.",
      ru: "Сервер хранит для вас уровень {n}.", fr: "Le serveur garde le niveau {n} pour vous.",
      de: "Der Server bewahrt Level {n} für dich auf.", zh: "服务器已为你保存第 {n} 关。" },
    progressNone: { en: "Nothing is kept on the server for this pack yet.",
      ru: "Для этого набора на сервере пока ничего не сохранено.",
      fr: "Rien n'est encore gardé sur le serveur pour ce jeu de niveaux.",
      de: "Für dieses Paket ist auf dem Server noch nichts gespeichert.",
      zh: "服务器上还没有保存此关卡包的进度。" },
    progressLoaded: { en: "Loaded from the server: level {n}.",
      ru: "Загружено с сервера: уровень {n}.", fr: "Chargé depuis le serveur : niveau {n}.",
      de: "Vom Server geladen: Level {n}.", zh: "已从服务器载入：第 {n} 关。" },
    tablesLink: { en: "All levels and players", ru: "Все уровни и игроки",
      fr: "Tous les niveaux et joueurs", de: "Alle Level und Spieler", zh: "所有关卡和玩家" },
    tablesTitle: { en: "Triplex: levels and players", ru: "Триплекс: уровни и игроки",
      fr: "Triplex : niveaux et joueurs", de: "Triplex: Level und Spieler",
      zh: "三联方块：关卡与玩家" },
    tablesHelp: {
      en: "Times are measured by the server, from opening a level to sending its " +
        "solution. Solves faster than a person can place the pieces are counted but take " +
        "no first place and no time.",
      ru: "Время измеряет сервер: от открытия уровня до отправки решения. Решения быстрее, " +
        "чем человек успевает уложить фигуры, учитываются, но не дают первого места и не " +
        "входят во время.",
      fr: "Les temps sont mesurés par le serveur, de l'ouverture d'un niveau à l'envoi de " +
        "sa solution. Les solutions plus rapides qu'une personne ne peut placer les pièces " +
        "sont comptées mais ne prennent ni première place ni temps.",
      de: "Die Zeiten misst der Server, vom Öffnen eines Levels bis zum Senden der Lösung. " +
        "Lösungen, schneller als ein Mensch die Teile legen kann, werden gezählt, " +
        "bekommen aber keinen ersten Platz und keine Zeit.",
      zh: "用时由服务器测量：从打开关卡到提交答案。比人放置方块还快的解答会被计数，" +
        "但不能获得首位，也不计入用时。"
    },
    tablePlayers: { en: "Players", ru: "Игроки", fr: "Joueurs", de: "Spieler", zh: "玩家" },
    colLevel: { en: "Level", ru: "Уровень", fr: "Niveau", de: "Level", zh: "关卡" },
    colFirst: { en: "First solver", ru: "Первым решил", fr: "Premier à résoudre",
      de: "Zuerst gelöst von", zh: "首位完成者" },
    colSolves: { en: "Solves", ru: "Решений", fr: "Résolutions", de: "Lösungen", zh: "完成次数" },
    colMedian: { en: "Median time", ru: "Медианное время", fr: "Temps médian",
      de: "Mittlere Zeit", zh: "中位用时" },
    colBest: { en: "Best time", ru: "Лучшее время", fr: "Meilleur temps", de: "Bestzeit",
      zh: "最佳用时" },
    colTooFast: { en: "Too fast", ru: "Слишком быстро", fr: "Trop rapides",
      de: "Zu schnell", zh: "过快" },
    colPlayer: { en: "Player", ru: "Игрок", fr: "Joueur", de: "Spieler", zh: "玩家" },
    colLevelsSolved: { en: "Levels solved", ru: "Решено уровней", fr: "Niveaux résolus",
      de: "Gelöste Level", zh: "已完成关卡" },
    colFirstSolves: { en: "First solves", ru: "Первых решений", fr: "Premières résolutions",
      de: "Erstlösungen", zh: "首位完成" },
    noPlayersYet: { en: "Nobody has solved a level of this pack yet.",
      ru: "В этом наборе ещё никто не решил ни одного уровня.",
      fr: "Personne n'a encore résolu de niveau de ce jeu.",
      de: "In diesem Paket hat noch niemand ein Level gelöst.",
      zh: "还没有人完成此关卡包的任何一关。" },
    backToGame: { en: "Back to the game", ru: "Вернуться к игре", fr: "Retour au jeu",
      de: "Zurück zum Spiel", zh: "返回游戏" },
    tableLoading: { en: "Loading…", ru: "Загрузка…", fr: "Chargement…", de: "Wird geladen…",
      zh: "加载中…" },

    // --- the registered games (boardlab.core.registry): titles and descriptions;
    // English is the server's own text, so an English page reads as before ---
    "game.abalone": { en: "Abalone", ru: "Абалон", fr: "Abalone", de: "Abalone", zh: "阿巴龙" },
    "about.abalone": { en: "Abalone (Lalet & Lévi 1987): push six opposing marbles off the hexagon",
      ru: "Абалон (Лале и Леви, 1987): вытолкните шесть шаров соперника за край шестиугольника",
      fr: "Abalone (Lalet et Lévi, 1987) : poussez six billes adverses hors de l'hexagone",
      de: "Abalone (Lalet & Lévi 1987): schiebe sechs gegnerische Kugeln aus dem Sechseck",
      zh: "阿巴龙（Lalet 与 Lévi，1987）：把对方六颗弹珠推出六边形棋盘" },
    "game.breakthrough": { en: "Breakthrough", ru: "Прорыв", fr: "Breakthrough", de: "Breakthrough",
      zh: "突破棋" },
    "about.breakthrough": {
      en: "Breakthrough (Troyka 2000): race a piece to the far row, diagonal captures",
      ru: "Прорыв (Тройка, 2000): доведите фигуру до дальнего ряда, взятие по диагонали",
      fr: "Breakthrough (Troyka, 2000) : amenez un pion à la rangée opposée, prises en " +
        "diagonale",
      de: "Breakthrough (Troyka 2000): bringe einen Stein zur gegnerischen Grundreihe, " +
        "geschlagen wird diagonal",
      zh: "突破棋（Troyka，2000）：率先让一枚棋子到达对方底线，斜向吃子" },
    "game.connect-four": { en: "Connect Four", ru: "Четыре в ряд", fr: "Puissance 4",
      de: "Vier gewinnt", zh: "四子棋" },
    "about.connect-four": { en: "Connect Four: drop discs into columns, four in a row wins",
      ru: "Четыре в ряд: бросайте фишки в столбцы, побеждают четыре в ряд",
      fr: "Puissance 4 : faites tomber des jetons dans les colonnes, quatre alignés gagnent",
      de: "Vier gewinnt: wirf Scheiben in die Spalten, vier in einer Reihe gewinnen",
      zh: "四子棋：把棋子投入各列，连成四子者胜" },
    "game.epaminondas": { en: "Epaminondas", ru: "Эпаминонд", fr: "Épaminondas", de: "Epaminondas",
      zh: "伊巴密浓达" },
    "about.epaminondas": {
      en: "Epaminondas (Abbott 1975): phalanxes move along their lines, capture shorter lines, " +
        "cross to the far row",
      ru: "Эпаминонд (Эбботт, 1975): фаланги движутся вдоль своих линий, бьют более короткие " +
        "линии и прорываются к дальнему ряду",
      fr: "Épaminondas (Abbott, 1975) : les phalanges avancent le long de leurs lignes, " +
        "prennent les lignes plus courtes et traversent jusqu'à la rangée opposée",
      de: "Epaminondas (Abbott 1975): Phalanxen ziehen entlang ihrer Linien, schlagen kürzere " +
        "Linien und erreichen die gegnerische Grundreihe",
      zh: "伊巴密浓达（Abbott，1975）：方阵沿其直线移动，吃掉较短的棋列，冲到对方底线" },
    "game.gess": { en: "GESS", ru: "Гесс", fr: "GESS", de: "GESS", zh: "格斯棋" },
    "about.gess": { en: "GESS (Archimedeans 1994): 3x3 footprints of stones move like chess pieces",
      ru: "Гесс (Archimedeans, 1994): «отпечатки» 3×3 из камней ходят как шахматные фигуры",
      fr: "GESS (Archimedeans, 1994) : des empreintes de 3x3 pierres se déplacent comme des " +
        "pièces d'échecs",
      de: "GESS (Archimedeans 1994): 3x3-Abdrücke aus Steinen ziehen wie Schachfiguren",
      zh: "格斯棋（Archimedeans，1994）：由棋子组成的 3x3 足迹像国际象棋棋子一样移动" },
    "game.hex-column-checkers": { en: "Hex column checkers", ru: "Гексагональные столбовые шашки",
      fr: "Dames à colonnes hexagonales", de: "Säulendame auf Sechseckfeldern", zh: "六角叠子跳棋" },
    "about.hex-column-checkers": {
      en: "Bashni-style column checkers without kings on a reshapable hex board",
      ru: "Столбовые шашки в духе башни, без дамок, на шестиугольной доске изменяемой формы",
      fr: "Dames à colonnes façon Bashni, sans dames, sur un plateau hexagonal de forme " +
        "variable",
      de: "Säulendame nach Art von Baschni, ohne Damen, auf einem Sechseckbrett veränderlicher " +
        "Form",
      zh: "巴什尼式叠子跳棋，无王棋，棋盘为可变形状的六角格" },
    "game.misere-tic-tac-toe": { en: "Misère tic-tac-toe", ru: "Крестики-нолики наоборот",
      fr: "Morpion misère", de: "Misère-Tic-Tac-Toe", zh: "反井字棋" },
    "about.misere-tic-tac-toe": { en: "Misère tic-tac-toe: three in a row loses",
      ru: "Крестики-нолики наоборот: три в ряд проигрывают",
      fr: "Morpion misère : trois alignés perdent",
      de: "Misère-Tic-Tac-Toe: drei in einer Reihe verlieren", zh: "反井字棋：连成三子者负" },
    "game.nine-mens-morris": { en: "Nine men's morris", ru: "Мельница", fr: "Jeu du moulin",
      de: "Mühle", zh: "九子棋" },
    "about.nine-mens-morris": {
      en: "Nine men's morris: place, move and fly; mills remove enemy men",
      ru: "Мельница: ставьте, двигайте и прыгайте фишками; мельница снимает фишку соперника",
      fr: "Jeu du moulin : posez, déplacez et sautez ; chaque moulin retire un pion adverse",
      de: "Mühle: setzen, ziehen und springen; jede Mühle nimmt einen gegnerischen Stein",
      zh: "九子棋：放子、走子、飞子；成三即可吃掉对方棋子" },
    "game.ordo": { en: "Ordo", ru: "Ордо", fr: "Ordo", de: "Ordo", zh: "秩序棋" },
    "about.ordo": { en: "Ordo (Stein 2009): connected group race; singletons and ordos move",
      ru: "Ордо (Штайн, 2009): гонка связной группы; ходят одиночные фишки и ордо",
      fr: "Ordo (Stein, 2009) : course d'un groupe connexe ; les pions seuls et les ordos se " +
        "déplacent",
      de: "Ordo (Stein 2009): Rennen einer zusammenhängenden Gruppe; Einzelsteine und Ordos " +
        "ziehen",
      zh: "秩序棋（Stein，2009）：保持棋子连通的竞速游戏；单子和“秩序列”可以移动" },
    "game.ordo-x": { en: "Ordo X", ru: "Ордо X", fr: "Ordo X", de: "Ordo X", zh: "秩序棋 X" },
    "about.ordo-x": {
      en: "Ordo X (Stein): Ordo with diagonal and in-line ordo moves, sideways preparation " +
        "moves and group capture",
      ru: "Ордо X (Штайн): Ордо с диагональными и продольными ходами ордо, боковыми " +
        "подготовительными ходами и взятием группой",
      fr: "Ordo X (Stein) : Ordo avec des déplacements d'ordo en diagonale et dans l'axe, des " +
        "coups latéraux de préparation et la prise en groupe",
      de: "Ordo X (Stein): Ordo mit diagonalen und längs gerichteten Ordo-Zügen, seitlichen " +
        "Vorbereitungszügen und Gruppenschlag",
      zh: "秩序棋 X（Stein）：在秩序棋基础上增加斜向与纵向的秩序列移动、横向准备移动和整组吃子" },
    "game.othello": { en: "Othello", ru: "Отелло", fr: "Othello", de: "Othello", zh: "黑白棋" },
    "about.othello": { en: "Othello (Reversi) on 8x8: flip the opponent's discs, most discs wins",
      ru: "Отелло (реверси) на доске 8×8: переворачивайте фишки соперника, побеждает тот, у " +
        "кого фишек больше",
      fr: "Othello (Reversi) sur 8x8 : retournez les pions adverses, le plus de pions gagne",
      de: "Othello (Reversi) auf 8x8: drehe die Steine des Gegners um, die meisten Steine " +
        "gewinnen",
      zh: "黑白棋（翻转棋），8x8：翻转对方棋子，棋子多者胜" },
    "game.quantum-morris": { en: "Quantum three men's morris", ru: "Квантовая малая мельница",
      fr: "Marelle à trois quantique", de: "Quanten-Dreiermühle", zh: "量子直三棋" },
    "about.quantum-morris": {
      en: "Quantum three men's morris: pieces in two places at once, cycles, collapse (Dagaz, " +
        "Axiom)",
      ru: "Квантовая малая мельница: фишки сразу в двух местах, циклы, коллапс (Dagaz, Axiom)",
      fr: "Marelle à trois quantique : des pièces à deux endroits à la fois, cycles, " +
        "effondrement (Dagaz, Axiom)",
      de: "Quanten-Dreiermühle: Steine an zwei Orten zugleich, Zyklen, Kollaps (Dagaz, Axiom)",
      zh: "量子直三棋：棋子同时处于两个位置，成环后坍缩（Dagaz、Axiom）" },
    "game.quantum-tic-tac-toe": { en: "Quantum tic-tac-toe", ru: "Квантовые крестики-нолики",
      fr: "Morpion quantique", de: "Quanten-Tic-Tac-Toe", zh: "量子井字棋" },
    "about.quantum-tic-tac-toe": {
      en: "Goff's quantum tic-tac-toe: spooky marks, cycles, collapse; every variant",
      ru: "Квантовые крестики-нолики Гоффа: «призрачные» метки, циклы, коллапс; все варианты",
      fr: "Le morpion quantique de Goff : marques fantômes, cycles, effondrement ; toutes les " +
        "variantes",
      de: "Goffs Quanten-Tic-Tac-Toe: spukhafte Zeichen, Zyklen, Kollaps; alle Varianten",
      zh: "Goff 的量子井字棋：幽灵标记、成环、坍缩；包含所有变体" },
    "game.taacoca": { en: "Taacoca", ru: "Таакока", fr: "Taacoca", de: "Taacoca", zh: "塔科卡" },
    "about.taacoca": {
      en: "Taacoca (Eiriksson 2009): move three stones a step forward at once on a hex",
      ru: "Таакока (Эйрикссон, 2009): двигайте три камня разом на шаг вперёд по шестиугольной " +
        "доске",
      fr: "Taacoca (Eiriksson, 2009) : avancez trois pierres d'un pas à la fois sur un plateau " +
        "hexagonal",
      de: "Taacoca (Eiriksson 2009): ziehe drei Steine zugleich einen Schritt vorwärts auf " +
        "einem Sechseckbrett",
      zh: "塔科卡（Eiriksson，2009）：在六角棋盘上一次将三颗棋子同时向前移动一步" },
    "game.three-mens-morris": { en: "Three men's morris", ru: "Малая мельница",
      fr: "Marelle à trois", de: "Dreiermühle", zh: "直三棋" },
    "about.three-mens-morris": {
      en: "Three men's morris: place and move three men to make three in a row",
      ru: "Малая мельница: ставьте и двигайте три фишки, чтобы выстроить их в ряд",
      fr: "Marelle à trois : posez puis déplacez trois pions pour les aligner",
      de: "Dreiermühle: setze und ziehe drei Steine, bis sie in einer Reihe stehen",
      zh: "直三棋：放下并移动三枚棋子，连成一线" },
    "game.tic-tac-toe": { en: "Tic-tac-toe", ru: "Крестики-нолики", fr: "Morpion",
      de: "Tic-Tac-Toe", zh: "井字棋" },
    "about.tic-tac-toe": { en: "Tic-tac-toe on 3x3: three in a row wins",
      ru: "Крестики-нолики на поле 3×3: побеждают три в ряд",
      fr: "Morpion sur 3x3 : trois alignés gagnent",
      de: "Tic-Tac-Toe auf 3x3: drei in einer Reihe gewinnen", zh: "3x3 井字棋：连成三子者胜" },
    "game.tic-tac-toe-3d": { en: "3D tic-tac-toe", ru: "Объёмные крестики-нолики",
      fr: "Morpion en 3D", de: "3D-Tic-Tac-Toe", zh: "立体井字棋" },
    "about.tic-tac-toe-3d": {
      en: "Tic-tac-toe on a 3x3x3 cube: three in a row along any of 49 lines wins",
      ru: "Крестики-нолики в кубе 3×3×3: побеждают три в ряд на любой из 49 линий",
      fr: "Morpion dans un cube 3x3x3 : trois alignés sur l'une des 49 lignes gagnent",
      de: "Tic-Tac-Toe im 3x3x3-Würfel: drei in einer Reihe auf einer der 49 Linien gewinnen",
      zh: "3x3x3 立体井字棋：在 49 条线中任意一条上连成三子者胜" },

    // --- their options in the new-game dialog: label, help (English: the server's)
    // and the labels of choices that are words (sizes and rule-set names stay) ---
    "option.abalone.start": { en: "start", ru: "начальная позиция", fr: "position de départ",
      de: "Startaufstellung", zh: "开局" },
    "help.abalone.start": { en: "starting position", ru: "начальная расстановка шаров",
      fr: "position de départ des billes", de: "Anfangsaufstellung der Kugeln", zh: "起始布局" },
    "choice.abalone.start.standard": { en: "standard", ru: "стандартная", fr: "standard",
      de: "Standard", zh: "标准" },
    "choice.abalone.start.belgian-daisy": { en: "Belgian daisy", ru: "бельгийская ромашка",
      fr: "marguerite belge", de: "Belgisches Gänseblümchen", zh: "比利时雏菊" },
    "choice.abalone.start.german-daisy": { en: "German daisy", ru: "немецкая ромашка",
      fr: "marguerite allemande", de: "Deutsches Gänseblümchen", zh: "德国雏菊" },
    "choice.abalone.start.dutch-daisy": { en: "Dutch daisy", ru: "голландская ромашка",
      fr: "marguerite hollandaise", de: "Holländisches Gänseblümchen", zh: "荷兰雏菊" },
    "choice.abalone.start.swiss-daisy": { en: "Swiss daisy", ru: "швейцарская ромашка",
      fr: "marguerite suisse", de: "Schweizer Gänseblümchen", zh: "瑞士雏菊" },
    "choice.abalone.start.fujiyama": { en: "Fujiyama", ru: "Фудзияма", fr: "Fujiyama",
      de: "Fujiyama", zh: "富士山" },
    "choice.abalone.start.alien-attack": { en: "alien attack", ru: "атака пришельцев",
      fr: "attaque extraterrestre", de: "Alien-Angriff", zh: "外星人入侵" },
    "choice.abalone.start.the-wall": { en: "the wall", ru: "стена", fr: "le mur", de: "die Mauer",
      zh: "城墙" },
    "choice.abalone.start.snakes": { en: "snakes", ru: "змеи", fr: "serpents", de: "Schlangen",
      zh: "蛇形" },
    "choice.abalone.start.marguerite": { en: "marguerite", ru: "маргаритка", fr: "marguerite",
      de: "Margerite", zh: "玛格丽特" },
    "option.abalone.max_moves": { en: "move limit", ru: "предел ходов", fr: "limite de coups",
      de: "Zuglimit", zh: "步数上限" },
    "help.abalone.max_moves": {
      en: "moves in all after which the game is drawn (boardlab's addition: the official rules " +
        "have no limit)",
      ru: "число ходов всего, после которого объявляется ничья (добавлено boardlab: в " +
        "официальных правилах предела нет)",
      fr: "nombre total de coups après lequel la partie est nulle (ajout de boardlab : les " +
        "règles officielles n'ont pas de limite)",
      de: "Gesamtzahl der Züge, nach der die Partie remis ist (Zusatz von boardlab: die " +
        "offiziellen Regeln kennen keine Grenze)",
      zh: "总步数达到此值即判和（boardlab 的补充：官方规则没有上限）" },
    "option.breakthrough.rows": { en: "rows", ru: "ряды", fr: "rangées", de: "Reihen", zh: "行数" },
    "help.breakthrough.rows": { en: "board rows", ru: "ряды доски", fr: "rangées du plateau",
      de: "Reihen des Bretts", zh: "棋盘行数" },
    "option.breakthrough.columns": { en: "columns", ru: "столбцы", fr: "colonnes", de: "Spalten",
      zh: "列数" },
    "help.breakthrough.columns": { en: "board columns", ru: "столбцы доски",
      fr: "colonnes du plateau", de: "Spalten des Bretts", zh: "棋盘列数" },
    "option.connect-four.rows": { en: "rows", ru: "ряды", fr: "rangées", de: "Reihen", zh: "行数" },
    "help.connect-four.rows": { en: "number of rows", ru: "число рядов", fr: "nombre de rangées",
      de: "Anzahl der Reihen", zh: "行的数量" },
    "option.connect-four.columns": { en: "columns", ru: "столбцы", fr: "colonnes", de: "Spalten",
      zh: "列数" },
    "help.connect-four.columns": { en: "number of columns (named a, b, ...)",
      ru: "число столбцов (обозначаются a, b, …)", fr: "nombre de colonnes (nommées a, b, …)",
      de: "Anzahl der Spalten (benannt a, b, …)", zh: "列的数量（依次命名为 a、b、…）" },
    "option.epaminondas.size": { en: "board", ru: "доска", fr: "plateau", de: "Brett", zh: "棋盘" },
    "help.epaminondas.size": { en: "board: Abbott's 14x12 or the 8x8 variant",
      ru: "доска: 14×12 по Эбботту или вариант 8×8",
      fr: "plateau : le 14x12 d'Abbott ou la variante 8x8",
      de: "Brett: Abbotts 14x12 oder die 8x8-Variante", zh: "棋盘：Abbott 的 14x12 或 8x8 变体" },
    "option.epaminondas.max_moves": { en: "move limit", ru: "предел ходов", fr: "limite de coups",
      de: "Zuglimit", zh: "步数上限" },
    "help.epaminondas.max_moves": {
      en: "plies after which the game is a draw (not in the published rules)",
      ru: "число полуходов, после которого объявляется ничья (нет в опубликованных правилах)",
      fr: "nombre de demi-coups après lequel la partie est nulle (absent des règles publiées)",
      de: "Halbzüge, nach denen die Partie remis ist (nicht in den veröffentlichten Regeln)",
      zh: "达到此半步数即判和（已发布的规则中没有）" },
    "option.gess.move_limit": { en: "move limit", ru: "предел ходов", fr: "limite de coups",
      de: "Zuglimit", zh: "步数上限" },
    "help.gess.move_limit": { en: "plies after which the game is drawn",
      ru: "число полуходов, после которого объявляется ничья",
      fr: "nombre de demi-coups après lequel la partie est nulle",
      de: "Halbzüge, nach denen die Partie remis ist", zh: "达到此半步数即判和" },
    "option.hex-column-checkers.shape": { en: "shape", ru: "форма доски", fr: "forme", de: "Form",
      zh: "棋盘形状" },
    "help.hex-column-checkers.shape": { en: "board shape (custom: use option cells)",
      ru: "форма доски (своя: задайте её в поле «клетки»)",
      fr: "forme du plateau (personnalisée : donnez-la dans « cases »)",
      de: "Form des Bretts (eigene: im Feld „Felder“ angeben)", zh: "棋盘形状（自定义：在“格子”选项中给出）" },
    "choice.hex-column-checkers.shape.hexagon": { en: "hexagon", ru: "шестиугольник",
      fr: "hexagone", de: "Sechseck", zh: "六边形" },
    "choice.hex-column-checkers.shape.hexagon-6": { en: "hexagon, side 6",
      ru: "шестиугольник со стороной 6", fr: "hexagone de côté 6", de: "Sechseck mit Seite 6",
      zh: "边长 6 的六边形" },
    "choice.hex-column-checkers.shape.diamond": { en: "diamond", ru: "ромб", fr: "losange",
      de: "Raute", zh: "菱形" },
    "choice.hex-column-checkers.shape.star": { en: "star", ru: "звезда", fr: "étoile", de: "Stern",
      zh: "星形" },
    "choice.hex-column-checkers.shape.custom": { en: "custom", ru: "своя", fr: "personnalisée",
      de: "eigene", zh: "自定义" },
    "option.hex-column-checkers.cells": { en: "cells", ru: "клетки", fr: "cases", de: "Felder",
      zh: "格子" },
    "help.hex-column-checkers.cells": {
      en: "custom shape: axial pairs '0,0 1,0 ...' or rows of 'o'",
      ru: "своя форма: осевые пары «0,0 1,0 …» или ряды из «o»",
      fr: "forme personnalisée : paires axiales « 0,0 1,0 … » ou rangées de « o »",
      de: "eigene Form: axiale Paare „0,0 1,0 …“ oder Reihen aus „o“",
      zh: "自定义形状：轴向坐标对“0,0 1,0 …”或由“o”组成的行" },
    "option.hex-column-checkers.rows": { en: "rows", ru: "ряды", fr: "rangées", de: "Reihen",
      zh: "行数" },
    "help.hex-column-checkers.rows": { en: "setup rows per side (0: (height - 2) // 2)",
      ru: "ряды начальной расстановки у каждой стороны (0: (высота − 2) // 2)",
      fr: "rangées de départ par camp (0 : (hauteur - 2) // 2)",
      de: "Aufstellungsreihen je Seite (0: (Höhe - 2) // 2)", zh: "每方初始摆放的行数（0 表示 (高度 - 2) // 2）" },
    "option.hex-column-checkers.majority": { en: "majority capture", ru: "взятие большинства",
      fr: "prise majoritaire", de: "Mehrheitsschlag", zh: "多吃原则" },
    "help.hex-column-checkers.majority": { en: "a capture must take the most men (Hexdame)",
      ru: "брать нужно наибольшее число шашек (как в Hexdame)",
      fr: "une prise doit prendre le plus de pions (Hexdame)",
      de: "ein Schlag muss die meisten Steine nehmen (Hexdame)", zh: "吃子时必须吃掉最多的棋子（Hexdame 规则）" },
    "option.hex-column-checkers.rejump": { en: "jump again", ru: "повторный прыжок",
      fr: "saut répété", de: "erneuter Sprung", zh: "重复跳吃" },
    "help.hex-column-checkers.rejump": {
      en: "a column may be jumped again in one move (no Turkish strike rule, as in World of " +
        "Abstract Games' Bashnya)",
      ru: "через столбик можно прыгнуть снова в том же ходе (без правила турецкого удара, как " +
        "в «Башне» из World of Abstract Games)",
      fr: "une colonne peut être sautée à nouveau dans le même coup (sans la règle du coup " +
        "turc, comme la Bashnya de World of Abstract Games)",
      de: "eine Säule darf im selben Zug erneut übersprungen werden (ohne die Regel des " +
        "türkischen Schlags, wie in der Bashnya von World of Abstract Games)",
      zh: "同一步中可以再次跳过同一叠棋（不用土耳其打击规则，同 World of Abstract Games 的 Bashnya）" },
    "option.hex-column-checkers.move_limit": { en: "move limit", ru: "предел ходов",
      fr: "limite de coups", de: "Zuglimit", zh: "步数上限" },
    "help.hex-column-checkers.move_limit": {
      en: "plies after which the game is drawn (0: 5 per cell)",
      ru: "число полуходов до ничьей (0: по 5 на клетку)",
      fr: "nombre de demi-coups avant la nulle (0 : 5 par case)",
      de: "Halbzüge bis zum Remis (0: 5 je Feld)", zh: "达到此半步数即判和（0 表示每格 5 步）" },
    "option.ordo.move_limit": { en: "move limit", ru: "предел ходов", fr: "limite de coups",
      de: "Zuglimit", zh: "步数上限" },
    "help.ordo.move_limit": { en: "plies after which the game is drawn (boardlab's rule)",
      ru: "число полуходов, после которого объявляется ничья (правило boardlab)",
      fr: "nombre de demi-coups après lequel la partie est nulle (règle de boardlab)",
      de: "Halbzüge, nach denen die Partie remis ist (Regel von boardlab)",
      zh: "达到此半步数即判和（boardlab 的规则）" },
    "option.ordo-x.move_limit": { en: "move limit", ru: "предел ходов", fr: "limite de coups",
      de: "Zuglimit", zh: "步数上限" },
    "help.ordo-x.move_limit": { en: "plies after which the game is drawn (boardlab's rule)",
      ru: "число полуходов, после которого объявляется ничья (правило boardlab)",
      fr: "nombre de demi-coups après lequel la partie est nulle (règle de boardlab)",
      de: "Halbzüge, nach denen die Partie remis ist (Regel von boardlab)",
      zh: "达到此半步数即判和（boardlab 的规则）" },
    "option.quantum-morris.preset": { en: "preset", ru: "набор правил", fr: "jeu de règles",
      de: "Regelsatz", zh: "规则预设" },
    "help.quantum-morris.preset": {
      en: "a named rule set that sets the flags below; explicit options override it",
      ru: "именованный набор правил, задающий флажки ниже; явно заданные параметры главнее",
      fr: "un jeu de règles nommé qui règle les options ci-dessous ; les options données " +
        "explicitement l'emportent",
      de: "ein benannter Regelsatz, der die Schalter unten setzt; ausdrücklich gesetzte " +
        "Optionen haben Vorrang",
      zh: "一组命名规则，会设置下面的开关；明确设置的选项优先" },
    "choice.quantum-morris.preset.": { en: "none", ru: "нет", fr: "aucun", de: "keiner", zh: "无" },
    "option.quantum-morris.scoring": { en: "scoring", ru: "подсчёт очков", fr: "décompte",
      de: "Wertung", zh: "计分" },
    "help.quantum-morris.scoring": {
      en: "simultaneous lines: complete (a draw) or axiom (smaller largest piece number wins)",
      ru: "одновременные линии: «полный» (ничья) или «axiom» (побеждает тот, у кого наибольший " +
        "номер фишки меньше)",
      fr: "lignes simultanées : « complet » (nulle) ou « axiom » (le plus petit plus grand " +
        "numéro de pièce gagne)",
      de: "gleichzeitige Linien: „vollständig“ (Remis) oder „axiom“ (die kleinere höchste " +
        "Steinnummer gewinnt)",
      zh: "同时成线：“完整”（和棋）或“axiom”（最大棋子编号较小者胜）" },
    "choice.quantum-morris.scoring.complete": { en: "complete", ru: "полный", fr: "complet",
      de: "vollständig", zh: "完整" },
    "option.quantum-morris.merge": { en: "merge", ru: "слияние", fr: "fusion", de: "Verschmelzen",
      zh: "合并" },
    "help.quantum-morris.merge": {
      en: "a half may step into its twin's point (the piece becomes classical)",
      ru: "половина может шагнуть в пункт своего двойника (фишка становится классической)",
      fr: "une moitié peut entrer sur le point de sa jumelle (la pièce devient classique)",
      de: "eine Hälfte darf auf den Punkt ihres Zwillings ziehen (der Stein wird klassisch)",
      zh: "半子可以走到其孪生半子所在的点（棋子变为经典态）" },
    "option.quantum-morris.diagonals": { en: "diagonals", ru: "диагонали", fr: "diagonales",
      de: "Diagonalen", zh: "对角线" },
    "help.quantum-morris.diagonals": { en: "steps also along the long diagonals, corner to centre",
      ru: "шаги также по длинным диагоналям, из угла в центр",
      fr: "pas aussi le long des grandes diagonales, du coin au centre",
      de: "Schritte auch entlang der langen Diagonalen, von der Ecke zur Mitte",
      zh: "也可沿长对角线（角到中心）走一步" },
    "option.quantum-morris.deterministic_drop": { en: "classical placement",
      ru: "классическая постановка", fr: "pose classique", de: "klassisches Setzen", zh: "经典放置" },
    "help.quantum-morris.deterministic_drop": {
      en: "a placement may put both halves in one point (classical at once)",
      ru: "постановка может поместить обе половины в один пункт (сразу классическая фишка)",
      fr: "une pose peut mettre les deux moitiés sur un même point (classique d'emblée)",
      de: "ein Setzzug darf beide Hälften auf einen Punkt stellen (sofort klassisch)",
      zh: "放置时可以把两个半子放在同一个点上（立即成为经典态）" },
    "option.quantum-morris.max_moves": { en: "move limit", ru: "предел ходов",
      fr: "limite de coups", de: "Zuglimit", zh: "步数上限" },
    "help.quantum-morris.max_moves": {
      en: "moves (collapses not counted) after which the game is a draw; boardlab's addition",
      ru: "число ходов (без коллапсов), после которого объявляется ничья; добавлено boardlab",
      fr: "nombre de coups (effondrements non comptés) après lequel la partie est nulle ; " +
        "ajout de boardlab",
      de: "Züge (ohne Kollapse), nach denen die Partie remis ist; Zusatz von boardlab",
      zh: "达到此步数（坍缩不计）即判和；boardlab 的补充" },
    "option.quantum-tic-tac-toe.preset": { en: "preset", ru: "набор правил", fr: "jeu de règles",
      de: "Regelsatz", zh: "规则预设" },
    "help.quantum-tic-tac-toe.preset": {
      en: "a named rule set that sets the flags below; explicit options override it",
      ru: "именованный набор правил, задающий флажки ниже; явно заданные параметры главнее",
      fr: "un jeu de règles nommé qui règle les options ci-dessous ; les options données " +
        "explicitement l'emportent",
      de: "ein benannter Regelsatz, der die Schalter unten setzt; ausdrücklich gesetzte " +
        "Optionen haben Vorrang",
      zh: "一组命名规则，会设置下面的开关；明确设置的选项优先" },
    "choice.quantum-tic-tac-toe.preset.": { en: "none", ru: "нет", fr: "aucun", de: "keiner",
      zh: "无" },
    "choice.quantum-tic-tac-toe.preset.goff": { en: "Goff", ru: "правила Гоффа",
      fr: "règles de Goff", de: "Goff-Regeln", zh: "Goff 规则" },
    "option.quantum-tic-tac-toe.numbering": { en: "numbering", ru: "нумерация", fr: "numérotation",
      de: "Nummerierung", zh: "编号" },
    "help.quantum-tic-tac-toe.numbering": {
      en: "move numbers: goff (X1, O2, X3...) or per-player (X1, O1, X2...)",
      ru: "номера ходов: по Гоффу (X1, O2, X3…) или у каждого игрока свои (X1, O1, X2…)",
      fr: "numéros des coups : Goff (X1, O2, X3…) ou par joueur (X1, O1, X2…)",
      de: "Zugnummern: Goff (X1, O2, X3…) oder je Spieler (X1, O1, X2…)",
      zh: "着法编号：Goff 式（X1、O2、X3…）或按玩家分别编号（X1、O1、X2…）" },
    "choice.quantum-tic-tac-toe.numbering.goff": { en: "Goff", ru: "по Гоффу", fr: "Goff",
      de: "Goff", zh: "Goff 式" },
    "choice.quantum-tic-tac-toe.numbering.per-player": { en: "per player", ru: "у каждого свои",
      fr: "par joueur", de: "je Spieler", zh: "按玩家" },
    "option.quantum-tic-tac-toe.scoring": { en: "scoring", ru: "подсчёт очков", fr: "décompte",
      de: "Wertung", zh: "计分" },
    "help.quantum-tic-tac-toe.scoring": { en: "how simultaneous lines score",
      ru: "как считаются одновременные линии", fr: "comment comptent les lignes simultanées",
      de: "wie gleichzeitige Linien gewertet werden", zh: "同时成线如何计分" },
    "choice.quantum-tic-tac-toe.scoring.goff-points": { en: "Goff's points", ru: "очки Гоффа",
      fr: "points de Goff", de: "Goff-Punkte", zh: "Goff 计分" },
    "choice.quantum-tic-tac-toe.scoring.narrow": { en: "narrow", ru: "узкий", fr: "étroit",
      de: "eng", zh: "窄" },
    "choice.quantum-tic-tac-toe.scoring.complete": { en: "complete", ru: "полный", fr: "complet",
      de: "vollständig", zh: "完整" },
    "option.quantum-tic-tac-toe.deterministic_moves": { en: "classical moves",
      ru: "классические ходы", fr: "coups classiques", de: "klassische Züge", zh: "经典着法" },
    "help.quantum-tic-tac-toe.deterministic_moves": {
      en: "allow both marks in one square (a classical mark)",
      ru: "разрешить обе метки в одной клетке (классическая метка)",
      fr: "autoriser les deux marques dans une même case (une marque classique)",
      de: "beide Zeichen in einem Feld erlauben (ein klassisches Zeichen)",
      zh: "允许两个标记落在同一格（经典标记）" },
    "option.quantum-tic-tac-toe.duplicate_pair": { en: "repeated pair", ru: "повтор пары",
      fr: "paire répétée", de: "wiederholtes Paar", zh: "重复格对" },
    "help.quantum-tic-tac-toe.duplicate_pair": {
      en: "allow a move on the two squares of an unresolved move",
      ru: "разрешить ход в те же две клетки, что и у неразрешённого хода",
      fr: "autoriser un coup sur les deux cases d'un coup non résolu",
      de: "einen Zug auf die zwei Felder eines unaufgelösten Zugs erlauben",
      zh: "允许在一个未坍缩着法的两格上再下一步" },
    "option.quantum-tic-tac-toe.last_square_classical": { en: "classical last square",
      ru: "классическая последняя клетка", fr: "dernière case classique",
      de: "klassisches letztes Feld", zh: "末格经典" },
    "help.quantum-tic-tac-toe.last_square_classical": {
      en: "a lone open square takes a classical ninth move",
      ru: "единственная свободная клетка получает классический девятый ход",
      fr: "une case libre isolée reçoit un neuvième coup classique",
      de: "ein einzelnes freies Feld bekommt einen klassischen neunten Zug",
      zh: "仅剩一个空格时，第九步为经典着法" },
    "option.quantum-tic-tac-toe.misere": { en: "misère", ru: "наоборот", fr: "misère", de: "Misère",
      zh: "反规则" },
    "help.quantum-tic-tac-toe.misere": { en: "swap the points: making lines is bad",
      ru: "очки меняются местами: строить линии плохо",
      fr: "inverser les points : faire des lignes est mauvais",
      de: "Punkte tauschen: Linien bilden ist schlecht", zh: "交换得分：成线反而不利" },
    "option.taacoca.directions": { en: "directions", ru: "направления", fr: "directions",
      de: "Richtungen", zh: "方向" },
    "help.taacoca.directions": {
      en: "forward: the two forward directions (published); all: the six directions (Dagaz's " +
        "ZRF)",
      ru: "вперёд: два направления вперёд (опубликованные правила); все: шесть направлений " +
        "(ZRF из Dagaz)",
      fr: "en avant : les deux directions vers l'avant (règles publiées) ; toutes : les six " +
        "directions (ZRF de Dagaz)",
      de: "vorwärts: die zwei Vorwärtsrichtungen (veröffentlicht); alle: die sechs Richtungen " +
        "(Dagaz-ZRF)",
      zh: "向前：两个向前方向（已发布规则）；全部：六个方向（Dagaz 的 ZRF）" },
    "choice.taacoca.directions.forward": { en: "forward", ru: "вперёд", fr: "en avant",
      de: "vorwärts", zh: "向前" },
    "choice.taacoca.directions.all": { en: "all", ru: "все", fr: "toutes", de: "alle", zh: "全部" },
    "option.taacoca.group": { en: "group", ru: "группа", fr: "groupe", de: "Gruppe", zh: "棋组" },
    "help.taacoca.group": {
      en: "three: exactly three stones (or all if fewer); any: 1, 2 or 3 stones",
      ru: "три: ровно три камня (или все, если их меньше); любая: 1, 2 или 3 камня",
      fr: "trois : exactement trois pierres (ou toutes s'il y en a moins) ; quelconque : 1, 2 " +
        "ou 3 pierres",
      de: "drei: genau drei Steine (oder alle, wenn es weniger sind); beliebig: 1, 2 oder 3 " +
        "Steine",
      zh: "三：恰好三颗棋子（不足三颗则全部）；任意：1、2 或 3 颗" },
    "choice.taacoca.group.three": { en: "three", ru: "три", fr: "trois", de: "drei", zh: "三颗" },
    "choice.taacoca.group.any": { en: "any", ru: "любая", fr: "quelconque", de: "beliebig",
      zh: "任意" },
    "option.taacoca.move_limit": { en: "move limit", ru: "предел ходов", fr: "limite de coups",
      de: "Zuglimit", zh: "步数上限" },
    "help.taacoca.move_limit": { en: "plies before a draw when directions=all",
      ru: "число полуходов до ничьей при направлениях «все»",
      fr: "nombre de demi-coups avant la nulle quand directions = toutes",
      de: "Halbzüge bis zum Remis bei Richtungen = alle", zh: "方向为“全部”时，判和前的半步数" },
    "option.three-mens-morris.diagonals": { en: "diagonals", ru: "диагонали", fr: "diagonales",
      de: "Diagonalen", zh: "对角线" },
    "help.three-mens-morris.diagonals": {
      en: "the two diagonals are lines: moves and wins along them",
      ru: "две диагонали — тоже линии: по ним ходят и выигрывают",
      fr: "les deux diagonales sont des lignes : on s'y déplace et on y gagne",
      de: "die zwei Diagonalen sind Linien: man zieht und gewinnt entlang ihnen",
      zh: "两条对角线也算线：可沿其走子和取胜" },
    "option.three-mens-morris.max_moves": { en: "move limit", ru: "предел ходов",
      fr: "limite de coups", de: "Zuglimit", zh: "步数上限" },
    "help.three-mens-morris.max_moves": { en: "plies after which the game is a draw",
      ru: "число полуходов, после которого объявляется ничья",
      fr: "nombre de demi-coups après lequel la partie est nulle",
      de: "Halbzüge, nach denen die Partie remis ist", zh: "达到此半步数即判和" },

    // --- players as the games name them (by the lowercase name): the name alone,
    // and the form after 'the move of', 'the seat of'... (Russian genitive чёрных,
    // French des Noirs); a name not here is shown as the game gives it ---
    "player.x": { en: "X", ru: "X", fr: "X", de: "X", zh: "X" },
    "playerOf.x": { en: "X", ru: "X", fr: "de X", de: "X", zh: "X" },
    "player.o": { en: "O", ru: "O", fr: "O", de: "O", zh: "O" },
    "playerOf.o": { en: "O", ru: "O", fr: "de O", de: "O", zh: "O" },
    "player.black": { en: "black", ru: "чёрные", fr: "Noirs", de: "Schwarz", zh: "黑方" },
    "playerOf.black": { en: "black", ru: "чёрных", fr: "des Noirs", de: "Schwarz", zh: "黑方" },
    "player.white": { en: "white", ru: "белые", fr: "Blancs", de: "Weiß", zh: "白方" },
    "playerOf.white": { en: "white", ru: "белых", fr: "des Blancs", de: "Weiß", zh: "白方" },

    // --- the bots of the new-game dialog and the players list ---
    "bot.mcts": { en: "mcts", ru: "mcts", fr: "mcts", de: "mcts", zh: "mcts" },
    "bot.alphabeta": { en: "alphabeta", ru: "альфа-бета", fr: "alpha-bêta", de: "Alpha-Beta",
      zh: "α-β" },
    "bot.random": { en: "random", ru: "случайный", fr: "aléatoire", de: "Zufall", zh: "随机" },

    // --- the server's errors by their code (web/errors.py); {player} is a player's
    // name, {of} its 'of' form; a code not here shows the server's English ---
    "error.noMatch": { en: "no match {id}", ru: "партии {id} нет", fr: "aucune partie {id}",
      de: "keine Partie {id}", zh: "没有对局 {id}" },
    "error.changed": { en: "the match has changed meanwhile; reload it",
      ru: "партия тем временем изменилась; обновите страницу",
      fr: "la partie a changé entre-temps ; rechargez-la",
      de: "die Partie hat sich inzwischen geändert; lade sie neu", zh: "对局已经变化，请重新加载" },
    "error.gameOver": { en: "the game is over", ru: "игра окончена", fr: "la partie est terminée",
      de: "das Spiel ist vorbei", zh: "游戏已结束" },
    "error.waitingForOpponent": { en: "the match is waiting for an opponent to join",
      ru: "партия ждёт, когда присоединится соперник",
      fr: "la partie attend qu'un adversaire la rejoigne",
      de: "die Partie wartet darauf, dass ein Gegner beitritt", zh: "对局正在等待对手加入" },
    "error.noSeats": { en: "this match was made before seats existed: start a new one",
      ru: "эта партия создана до появления мест: начните новую",
      fr: "cette partie date d'avant les places : commencez-en une nouvelle",
      de: "diese Partie stammt aus der Zeit vor den Plätzen: starte eine neue",
      zh: "此对局创建于座位功能之前：请开始新对局" },
    "error.notYourMatch": { en: "you hold no seat in this match",
      ru: "у вас нет места в этой партии", fr: "vous n'avez pas de place dans cette partie",
      de: "du hast keinen Platz in dieser Partie", zh: "你在这局中没有座位" },
    "error.notYourSeat": { en: "you do not hold this seat", ru: "это место не ваше",
      fr: "cette place n'est pas la vôtre", de: "dieser Platz gehört dir nicht", zh: "这个座位不是你的" },
    "error.timeRanOut": { en: "{player}'s time ran out before the move",
      ru: "у {of} кончилось время до хода", fr: "le temps {of} s'est écoulé avant le coup",
      de: "die Zeit von {player} lief vor dem Zug ab", zh: "{player}在走棋前已超时" },
    "error.noOpenSeat": { en: "no seat of this match is open",
      ru: "в этой партии нет свободных мест", fr: "aucune place n'est libre dans cette partie",
      de: "in dieser Partie ist kein Platz frei", zh: "此对局没有空位" },
    "error.playedByBot": { en: "{player} is played by a bot", ru: "за {of} играет бот",
      fr: "les coups {of} sont joués par un bot", de: "{player} wird von einem Bot gespielt",
      zh: "{player}由机器人执棋" },
    "error.playedByChance": { en: "{player} is a random player: the server draws its moves",
      ru: "ходы {of} выбирает жребий на сервере",
      fr: "les coups {of} sont tirés au sort par le serveur",
      de: "{player} zieht zufällig: der Server lost seine Züge aus",
      zh: "{player}是随机玩家：由服务器随机抽取走法" },
    "error.notYourTurn": { en: "it is {player}'s turn, a seat you do not hold",
      ru: "сейчас ход {of}, а это не ваше место",
      fr: "c'est au tour {of}, une place qui n'est pas la vôtre",
      de: "{player} ist am Zug, ein Platz, der dir nicht gehört", zh: "现在轮到{player}，这不是你的座位" },
    "error.botsNoDraw": { en: "bots do not take draw offers",
      ru: "боты не принимают предложений ничьей", fr: "les bots n'acceptent pas de nulle",
      de: "Bots nehmen kein Remis an", zh: "机器人不接受提和" },
    "error.noDrawOffer": { en: "no draw is offered", ru: "ничья не предложена",
      fr: "aucune nulle n'est proposée", de: "es ist kein Remis angeboten", zh: "没有人提和" },
    "error.nothingToTakeBack": { en: "you have no move to take back", ru: "вам нечего вернуть",
      fr: "vous n'avez aucun coup à reprendre", de: "du hast keinen Zug zum Zurücknehmen",
      zh: "你没有可以悔的棋" },
    "error.askForTakeback": { en: "your opponent must agree: ask for a take-back instead",
      ru: "нужно согласие соперника: попросите вернуть ход",
      fr: "votre adversaire doit accepter : demandez plutôt à reprendre",
      de: "dein Gegner muss zustimmen: bitte stattdessen um Zurücknahme", zh: "需要对手同意：请改为请求悔棋" },
    "error.undoNeedsNoConsent": { en: "nobody else plays here: undo needs no consent",
      ru: "здесь больше никто не играет: отмене хода согласие не нужно",
      fr: "personne d'autre ne joue ici : annuler ne demande aucun accord",
      de: "hier spielt sonst niemand: Zurücknehmen braucht keine Zustimmung",
      zh: "这里没有其他人下棋：悔棋无需同意" },
    "error.noTakeback": { en: "no take-back is asked for", ru: "никто не просил вернуть ход",
      fr: "aucune reprise n'est demandée", de: "es wurde keine Zurücknahme erbeten",
      zh: "没有人请求悔棋" },
    "error.takebackIsYours": { en: "your opponent must accept your take-back",
      ru: "вашу просьбу вернуть ход должен принять соперник",
      fr: "c'est à votre adversaire d'accepter votre reprise",
      de: "dein Gegner muss deine Zurücknahme annehmen", zh: "你的悔棋请求需要对手接受" },
    "error.notOver": { en: "the game is not over yet", ru: "игра ещё не окончена",
      fr: "la partie n'est pas encore terminée", de: "das Spiel ist noch nicht vorbei",
      zh: "游戏尚未结束" },
    "error.busy": { en: "the server is busy; try again in a few seconds",
      ru: "сервер занят; попробуйте через несколько секунд",
      fr: "le serveur est occupé ; réessayez dans quelques secondes",
      de: "der Server ist beschäftigt; versuche es in ein paar Sekunden erneut",
      zh: "服务器繁忙，请几秒后再试" },
    "error.unavailable": { en: "the server is busy or unavailable; try again later",
      ru: "сервер занят или недоступен; попробуйте позже",
      fr: "le serveur est occupé ou indisponible ; réessayez plus tard",
      de: "der Server ist beschäftigt oder nicht erreichbar; versuche es später",
      zh: "服务器繁忙或不可用，请稍后再试" },
    "error.botLate": { en: "the bot did not move in time; try again",
      ru: "бот не успел сходить; попробуйте ещё раз", fr: "le bot n'a pas joué à temps ; réessayez",
      de: "der Bot hat nicht rechtzeitig gezogen; versuche es erneut", zh: "机器人没有及时走棋，请重试" },
    "error.pipesTooCostly": { en: "this random level is too costly to generate; try another seed",
      ru: "этот случайный уровень слишком долго строить; попробуйте другой номер",
      fr: "ce niveau aléatoire est trop coûteux à générer ; essayez une autre graine",
      de: "dieses Zufallslevel ist zu aufwendig zu erzeugen; versuche eine andere Nummer",
      zh: "生成这个随机关卡的代价太高，请换一个编号" },
    "error.noPipeLevel": { en: "no pipe level {level}", ru: "уровня {level} нет",
      fr: "aucun niveau {level}", de: "kein Level {level}", zh: "没有关卡 {level}" },
    "error.unknownGame": { en: "no game {game}", ru: "игры {game} нет", fr: "aucun jeu {game}",
      de: "kein Spiel {game}", zh: "没有游戏 {game}" },
    "error.illegalMove": { en: "{move} is not a legal move here", ru: "ход {move} здесь невозможен",
      fr: "le coup {move} n'est pas légal ici", de: "der Zug {move} ist hier nicht erlaubt",
      zh: "此处不能走 {move}" },
    "error.badNotation": { en: "this notation names no move", ru: "такая запись не обозначает хода",
      fr: "cette notation ne désigne aucun coup", de: "diese Notation bezeichnet keinen Zug",
      zh: "这个记法不表示任何着法" },
    "error.badOption": { en: "the game does not accept these options",
      ru: "игра не принимает такие параметры", fr: "le jeu n'accepte pas ces options",
      de: "das Spiel akzeptiert diese Optionen nicht", zh: "游戏不接受这些选项" },
    "error.badBot": { en: "this bot cannot play here", ru: "этот бот здесь играть не может",
      fr: "ce bot ne peut pas jouer ici", de: "dieser Bot kann hier nicht spielen",
      zh: "这个机器人无法在此下棋" },
    "error.storeUnavailable": { en: "the server's database is unavailable; try again later",
      ru: "база данных сервера недоступна; попробуйте позже",
      fr: "la base de données du serveur est indisponible ; réessayez plus tard",
      de: "die Datenbank des Servers ist nicht erreichbar; versuche es später",
      zh: "服务器数据库不可用，请稍后再试" },
    "error.invalidRequest": { en: "the request is not valid", ru: "неверный запрос",
      fr: "requête invalide", de: "ungültige Anfrage", zh: "请求无效" },
    "error.malformedJson": { en: "the request is not valid JSON", ru: "запрос — не корректный JSON",
      fr: "la requête n'est pas du JSON valide", de: "die Anfrage ist kein gültiges JSON",
      zh: "请求不是有效的 JSON" },
    "error.internal": { en: "internal error (a bug in boardlab; see the server log)",
      ru: "внутренняя ошибка (ошибка в boardlab; см. журнал сервера)",
      fr: "erreur interne (un bogue de boardlab ; voir le journal du serveur)",
      de: "interner Fehler (ein Fehler in boardlab; siehe das Serverprotokoll)",
      zh: "内部错误（boardlab 的缺陷；请查看服务器日志）" },
    "error.tooLarge": { en: "the request is too large", ru: "запрос слишком велик",
      fr: "la requête est trop grande", de: "die Anfrage ist zu groß", zh: "请求过大" },
    "error.tooMany": { en: "too many requests; try again later",
      ru: "слишком много запросов; попробуйте позже", fr: "trop de requêtes ; réessayez plus tard",
      de: "zu viele Anfragen; versuche es später erneut", zh: "请求过多，请稍后再试" },
    "error.notFound": { en: "not found", ru: "не найдено", fr: "introuvable", de: "nicht gefunden",
      zh: "未找到" },
    // --- Triplex's leaderboard and progress (api_triplex.py) ---
    "error.badToken": { en: "the level's start token is not valid; open the level again",
      ru: "стартовый жетон уровня недействителен; откройте уровень заново",
      fr: "le jeton de départ du niveau n'est pas valide ; rouvrez le niveau",
      de: "das Start-Token des Levels ist ungültig; öffne das Level erneut",
      zh: "关卡的开始凭证无效；请重新打开关卡" },
    "error.tokenExpired": { en: "the level was opened too long ago to be timed; open it again",
      ru: "уровень открыт слишком давно, чтобы засечь время; откройте его заново",
      fr: "le niveau a été ouvert il y a trop longtemps pour être chronométré ; rouvrez-le",
      de: "das Level wurde vor zu langer Zeit geöffnet, um es zu stoppen; öffne es erneut",
      zh: "关卡打开太久，无法计时；请重新打开" },
    "error.tokenUsed": { en: "this solve is already recorded",
      ru: "это решение уже записано", fr: "cette solution est déjà enregistrée",
      de: "diese Lösung ist bereits erfasst", zh: "这次完成已被记录" },
    "error.wrongUnlock": { en: "this code does not open level {n}",
      ru: "этот код не открывает уровень {n}", fr: "ce code n'ouvre pas le niveau {n}",
      de: "dieser Code öffnet Level {n} nicht", zh: "这个代码无法打开第 {n} 关" },
    "error.malformedCode": { en: "this is not a level code",
      ru: "это не код уровня", fr: "ce n'est pas un code de niveau",
      de: "das ist kein Levelcode", zh: "这不是关卡代码" },
    "error.wrongSolution": { en: "the server does not accept this solution",
      ru: "сервер не принимает это решение", fr: "le serveur n'accepte pas cette solution",
      de: "der Server nimmt diese Lösung nicht an", zh: "服务器不接受这个答案" },
    "error.noTriplexLevel": { en: "this pack has no level {n}",
      ru: "в этом наборе нет уровня {n}", fr: "ce jeu n'a pas de niveau {n}",
      de: "dieses Paket hat kein Level {n}", zh: "此关卡包没有第 {n} 关" },
    "error.wrongPlayerSecret": { en: "wrong secret for this name",
      ru: "неверный секрет для этого имени", fr: "mauvais secret pour ce nom",
      de: "falsches Geheimnis für diesen Namen", zh: "这个名字的密语不对" },
    "error.noSuchPlayer": { en: "nobody has saved progress under this name",
      ru: "под этим именем прогресс не сохраняли",
      fr: "personne n'a enregistré de progression sous ce nom",
      de: "unter diesem Namen wurde kein Fortschritt gespeichert",
      zh: "没有人用这个名字保存过进度" },
    "error.badPlayerSecret": { en: "a secret has {min} to {max} characters",
      ru: "в секрете от {min} до {max} символов", fr: "un secret a de {min} à {max} caractères",
      de: "ein Geheimnis hat {min} bis {max} Zeichen", zh: "密语应有 {min} 到 {max} 个字符" },

    // --- the Plumber quest's pages (quest.html, quest-organiser.html) ---
    questPageTitle: { en: "boardlab plumber quest", ru: "boardlab: квест «Водопровод»",
      fr: "boardlab : quête du plombier", de: "boardlab: Klempner-Quest", zh: "boardlab 水管工任务" },
    questTitle: { en: "Plumber quest", ru: "Квест «Водопровод»", fr: "Quête du plombier",
      de: "Klempner-Quest", zh: "水管工任务" },
    questBlurb: { en: "a city quest: teams find the segments at locations and type the pipe's letters",
      ru: "городской квест: команды находят сегменты на локациях и вводят буквы водопровода",
      fr: "une quête dans la ville : les équipes trouvent les tuyaux sur des lieux et tapent " +
        "les lettres de la canalisation",
      de: "eine Stadt-Quest: Teams finden die Rohrstücke an Orten und tippen die Buchstaben " +
        "der Leitung",
      zh: "城市任务：各队在各地点找到管段并输入管道上的字母" },
    questNewTitle: { en: "Start a quest", ru: "Новый квест", fr: "Lancer une quête",
      de: "Eine Quest starten", zh: "发起任务" },
    questNewHelp: {
      en: "Upload a pipe level: teams find a code at a city location for every segment, " +
        "build the pipe and type its letters.",
      ru: "Загрузите уровень: команды находят на локациях города код каждого сегмента, " +
        "собирают водопровод и вводят его буквы.",
      fr: "Envoyez un niveau : les équipes trouvent dans la ville un code pour chaque " +
        "tuyau, construisent la canalisation et tapent ses lettres.",
      de: "Lade ein Level hoch: Die Teams finden an Orten der Stadt einen Code für jedes " +
        "Rohrstück, bauen die Leitung und tippen ihre Buchstaben.",
      zh: "上传一个关卡：各队在城市各处找到每个管段的代码，拼出管道并输入沿途的字母。" },
    questName: { en: "Quest name", ru: "Название квеста", fr: "Nom de la quête",
      de: "Name der Quest", zh: "任务名称" },
    questLevelFile: { en: "Level file (text or CSV y,x,type,lit)",
      ru: "Файл уровня (текст или CSV y,x,type,lit)",
      fr: "Fichier du niveau (texte ou CSV y,x,type,lit)",
      de: "Level-Datei (Text oder CSV y,x,type,lit)", zh: "关卡文件（文本或 CSV y,x,type,lit）" },
    questLevelText: { en: "Level", ru: "Уровень", fr: "Niveau", de: "Level", zh: "关卡" },
    questFormat: { en: "Format", ru: "Формат", fr: "Format", de: "Format", zh: "格式" },
    questFormatAuto: { en: "recognise", ru: "определить", fr: "reconnaître",
      de: "erkennen", zh: "自动识别" },
    questFormatText: { en: "text (LA IK ...)", ru: "текст (LA IK ...)",
      fr: "texte (LA IK ...)", de: "Text (LA IK ...)", zh: "文本（LA IK ...）" },
    questFormatCsv: { en: "CSV table y,x,type,lit", ru: "таблица CSV y,x,type,lit",
      fr: "tableau CSV y,x,type,lit", de: "CSV-Tabelle y,x,type,lit", zh: "CSV 表格 y,x,type,lit" },
    questCreate: { en: "Create the quest", ru: "Создать квест", fr: "Créer la quête",
      de: "Quest anlegen", zh: "创建任务" },
    questCreated: {
      en: "The quest is ready. Keep the organiser's link secret: it shows the codes and " +
        "the teams.",
      ru: "Квест готов. Храните ссылку организатора в секрете: по ней видны коды и команды.",
      fr: "La quête est prête. Gardez secret le lien de l'organisateur : il montre les " +
        "codes et les équipes.",
      de: "Die Quest ist bereit. Halte den Link des Veranstalters geheim: Er zeigt die " +
        "Codes und die Teams.",
      zh: "任务已就绪。请保密组织者链接：它能看到所有代码和队伍。" },
    questOrganiserLink: { en: "Organiser's page:", ru: "Страница организатора:",
      fr: "Page de l'organisateur :", de: "Seite des Veranstalters:", zh: "组织者页面：" },
    questTeamLink: { en: "Teams join at:", ru: "Команды входят по ссылке:",
      fr: "Les équipes rejoignent ici :", de: "Teams treten hier bei:", zh: "队伍加入地址：" },
    questJoinTitle: { en: "Join {name}", ru: "Вход в квест «{name}»",
      fr: "Rejoindre {name}", de: "{name} beitreten", zh: "加入 {name}" },
    questTeamName: { en: "Team name", ru: "Название команды", fr: "Nom de l'équipe",
      de: "Teamname", zh: "队名" },
    questJoin: { en: "Join the quest", ru: "Войти в квест", fr: "Rejoindre la quête",
      de: "Der Quest beitreten", zh: "加入任务" },
    questTeamTitle: { en: "{team} in {name}", ru: "{team} — квест «{name}»",
      fr: "{team} dans {name}", de: "{team} in {name}", zh: "{name}：{team}" },
    questGridLabel: {
      en: { one: "the grid: {found} of {total} segments found",
        other: "the grid: {found} of {total} segments found" },
      ru: { one: "сетка: найден {found} сегмент из {total}",
        few: "сетка: найдено {found} сегмента из {total}",
        many: "сетка: найдено {found} сегментов из {total}",
        other: "сетка: найдено {found} сегмента из {total}" },
      fr: { one: "la grille : {found} tuyau trouvé sur {total}",
        other: "la grille : {found} tuyaux trouvés sur {total}" },
      de: { one: "das Raster: {found} von {total} Rohrstücken gefunden",
        other: "das Raster: {found} von {total} Rohrstücken gefunden" },
      zh: { other: "网格：已找到 {found}/{total} 个管段" } },
    questFound: {
      en: { one: "{found} of {total} segments found", other: "{found} of {total} segments found" },
      ru: { one: "найден {found} сегмент из {total}", few: "найдено {found} сегмента из {total}",
        many: "найдено {found} сегментов из {total}", other: "найдено {found} сегмента из {total}" },
      fr: { one: "{found} tuyau trouvé sur {total}", other: "{found} tuyaux trouvés sur {total}" },
      de: { one: "{found} von {total} Rohrstücken gefunden",
        other: "{found} von {total} Rohrstücken gefunden" },
      zh: { other: "已找到 {found}/{total} 个管段" } },
    questLocationCode: { en: "Code found at a location", ru: "Код с локации",
      fr: "Code trouvé sur un lieu", de: "Code von einem Ort", zh: "在地点找到的代码" },
    questReveal: { en: "Reveal", ru: "Открыть", fr: "Révéler", de: "Aufdecken", zh: "揭开" },
    questRevealed: { en: "New segment: row {row}, column {col}, letter {letter}",
      ru: "Новый сегмент: строка {row}, столбец {col}, буква {letter}",
      fr: "Nouveau tuyau : ligne {row}, colonne {col}, lettre {letter}",
      de: "Neues Rohrstück: Zeile {row}, Spalte {col}, Buchstabe {letter}",
      zh: "新管段：第 {row} 行，第 {col} 列，字母 {letter}" },
    questAnswer: { en: "The letters along your pipe", ru: "Буквы вдоль вашего водопровода",
      fr: "Les lettres le long de votre tuyau", de: "Die Buchstaben entlang eurer Leitung",
      zh: "沿着你们管道的字母" },
    questSend: { en: "Send", ru: "Отправить", fr: "Envoyer", de: "Senden", zh: "提交" },
    questWrongAnswer: { en: "That is not the code of a pipe from the tap to the drain.",
      ru: "Это не код водопровода от крана до стока.",
      fr: "Ce n'est pas le code d'un tuyau du robinet à l'évacuation.",
      de: "Das ist nicht der Code einer Leitung vom Hahn zum Abfluss.",
      zh: "这不是从水龙头到排水口的管道密码。" },
    questFinished: { en: "Solved! Your time: {time}", ru: "Решено! Ваше время: {time}",
      fr: "Résolu ! Votre temps : {time}", de: "Gelöst! Eure Zeit: {time}",
      zh: "解开了！用时：{time}" },
    questShare: { en: "Another phone of the team opens:", ru: "Второй телефон команды открывает:",
      fr: "Un autre téléphone de l'équipe ouvre :", de: "Ein weiteres Handy des Teams öffnet:",
      zh: "队伍的另一部手机打开：" },
    questOrganiserPageTitle: { en: "boardlab plumber quest: organiser",
      ru: "boardlab: квест «Водопровод», организатор",
      fr: "boardlab : quête du plombier, organisateur",
      de: "boardlab: Klempner-Quest, Veranstalter", zh: "boardlab 水管工任务：组织者" },
    questOrganiserTitle: { en: "Quest organiser", ru: "Организатор квеста",
      fr: "Organisateur de la quête", de: "Veranstalter der Quest", zh: "任务组织者" },
    questPrint: { en: "Print the location codes", ru: "Распечатать коды локаций",
      fr: "Imprimer les codes des lieux", de: "Die Orts-Codes drucken", zh: "打印地点代码" },
    questTeams: { en: "Teams", ru: "Команды", fr: "Équipes", de: "Teams", zh: "队伍" },
    questNoTeams: { en: "No team has joined yet.", ru: "Ни одна команда ещё не вошла.",
      fr: "Aucune équipe n'a encore rejoint.", de: "Noch kein Team ist beigetreten.",
      zh: "还没有队伍加入。" },
    questTries: { en: "codes tried: {tries}, wrong: {wrong}",
      ru: "кодов введено: {tries}, неверных: {wrong}",
      fr: "codes essayés : {tries}, faux : {wrong}", de: "Codes versucht: {tries}, falsch: {wrong}",
      zh: "尝试代码 {tries} 次，错误 {wrong} 次" },
    questAnswers: {
      en: { one: "{n} answer", other: "{n} answers" },
      ru: { one: "{n} ответ", few: "{n} ответа", many: "{n} ответов", other: "{n} ответа" },
      fr: { one: "{n} réponse", other: "{n} réponses" },
      de: { one: "{n} Antwort", other: "{n} Antworten" },
      zh: { other: "{n} 次作答" } },
    questTeamFinished: { en: "finished at {clock}, in {time}", ru: "финиш в {clock}, за {time}",
      fr: "arrivée à {clock}, en {time}", de: "fertig um {clock}, in {time}",
      zh: "于 {clock} 完成，用时 {time}" },
    questTeamGridLabel: { en: "the grid of {team}: segments found: {found}",
      ru: "сетка команды {team}: найдено сегментов: {found}",
      fr: "la grille de {team} : tuyaux trouvés : {found}",
      de: "das Raster von {team}: gefundene Rohrstücke: {found}",
      zh: "{team} 的网格：已找到 {found} 个管段" },
    questLive: { en: "live", ru: "в эфире", fr: "en direct", de: "live", zh: "实时" },
    questReconnecting: { en: "reconnecting…", ru: "переподключение…",
      fr: "reconnexion…", de: "verbinde neu…", zh: "正在重新连接…" },
    questNoKey: { en: "This link lacks the quest or its organiser's key.",
      ru: "В ссылке нет квеста или ключа организатора.",
      fr: "Il manque à ce lien la quête ou la clé de l'organisateur.",
      de: "Diesem Link fehlt die Quest oder der Schlüssel des Veranstalters.",
      zh: "此链接缺少任务或组织者密钥。" },
    questSheet: { en: "Location codes", ru: "Коды локаций", fr: "Codes des lieux",
      de: "Orts-Codes", zh: "地点代码" },
    questSheetHelp: {
      en: "Write each code with a marker at its location; a team that types it sees that " +
        "segment.",
      ru: "Напишите каждый код маркером на его локации; команда, которая его введёт, увидит " +
        "этот сегмент.",
      fr: "Écrivez chaque code au feutre sur son lieu ; une équipe qui le tape voit ce tuyau.",
      de: "Schreibe jeden Code mit einem Marker an seinen Ort; ein Team, das ihn tippt, sieht " +
        "dieses Rohrstück.",
      zh: "用记号笔把每个代码写在对应地点；输入它的队伍就能看到那个管段。" },
    questCell: { en: "Cell", ru: "Клетка", fr: "Case", de: "Feld", zh: "格子" },
    questSegment: { en: "Segment", ru: "Сегмент", fr: "Tuyau", de: "Rohrstück", zh: "管段" },
    questCode: { en: "Code", ru: "Код", fr: "Code", de: "Code", zh: "代码" },
    questCellAt: { en: "row {row}, column {col}", ru: "строка {row}, столбец {col}",
      fr: "ligne {row}, colonne {col}", de: "Zeile {row}, Spalte {col}",
      zh: "第 {row} 行，第 {col} 列" },
    questStraight: { en: "straight, {letter}", ru: "прямая, {letter}", fr: "droit, {letter}",
      de: "gerade, {letter}", zh: "直管，{letter}" },
    questElbow: { en: "elbow, {letter}", ru: "колено, {letter}", fr: "coude, {letter}",
      de: "Knie, {letter}", zh: "弯管，{letter}" },
    "error.noQuest": { en: "no quest {quest}", ru: "квеста {quest} нет",
      fr: "aucune quête {quest}", de: "keine Quest {quest}", zh: "没有任务 {quest}" },
    "error.notInQuest": { en: "join the quest first: this browser holds no team of it",
      ru: "сначала войдите в квест: у этого браузера нет команды в нём",
      fr: "rejoignez d'abord la quête : ce navigateur n'y a pas d'équipe",
      de: "tritt zuerst der Quest bei: dieser Browser hat dort kein Team",
      zh: "请先加入任务：此浏览器在该任务中没有队伍" },
    "error.notOrganiser": { en: "the organiser's key is missing or wrong",
      ru: "ключа организатора нет или он неверен",
      fr: "la clé de l'organisateur manque ou est fausse",
      de: "der Schlüssel des Veranstalters fehlt oder ist falsch",
      zh: "组织者密钥缺失或错误" },
    "error.badQuestRequest": { en: "the request lacks a valid {field}",
      ru: "в запросе нет верного поля {field}", fr: "la requête n'a pas de {field} valide",
      de: "der Anfrage fehlt ein gültiges {field}", zh: "请求缺少有效的 {field}" },
    "error.questFieldTooLong": { en: "{field} is longer than {limit} characters",
      ru: "{field}: длиннее {limit} символов", fr: "{field} dépasse {limit} caractères",
      de: "{field} ist länger als {limit} Zeichen", zh: "{field} 超过 {limit} 个字符" },
    "error.emptyName": { en: "the name is empty", ru: "название пустое",
      fr: "le nom est vide", de: "der Name ist leer", zh: "名称为空" },
    "error.badName": { en: "the name has a control character",
      ru: "в названии управляющий символ", fr: "le nom contient un caractère de contrôle",
      de: "der Name enthält ein Steuerzeichen", zh: "名称含有控制字符" },
    "error.badLevel": { en: "the level is malformed ({where}): {problem}",
      ru: "уровень записан неверно ({where}): {problem}",
      fr: "le niveau est mal formé ({where}) : {problem}",
      de: "das Level ist fehlerhaft ({where}): {problem}",
      zh: "关卡格式错误（{where}）：{problem}" },
    "error.questTooLarge": { en: "the level has {cells} cells, more than the {limit} a quest may have",
      ru: "в уровне {cells} клеток, больше допустимых для квеста {limit}",
      fr: "le niveau a {cells} cases, plus que les {limit} permises",
      de: "das Level hat {cells} Felder, mehr als die erlaubten {limit}",
      zh: "关卡有 {cells} 个格子，超过任务允许的 {limit} 个" },
    "error.questNoSolution": { en: "the level has no solution: no pipe leads from the tap to the drain",
      ru: "у уровня нет решения: ни один водопровод не ведёт от крана к стоку",
      fr: "le niveau n'a pas de solution : aucun tuyau ne va du robinet à l'évacuation",
      de: "das Level hat keine Lösung: keine Leitung führt vom Hahn zum Abfluss",
      zh: "关卡无解：没有管道能从水龙头通到排水口" },
    "error.questTooManySolutions": { en: "the level has {count} solutions, more than the {limit} a quest stores",
      ru: "у уровня {count} решений, больше допустимых {limit}",
      fr: "le niveau a {count} solutions, plus que les {limit} qu'une quête garde",
      de: "das Level hat {count} Lösungen, mehr als die {limit}, die eine Quest speichert",
      zh: "关卡有 {count} 个解，超过任务可存储的 {limit} 个" },
    "error.teamNameTaken": { en: "the quest has a team named {name} already",
      ru: "в квесте уже есть команда {name}", fr: "la quête a déjà une équipe {name}",
      de: "die Quest hat schon ein Team {name}", zh: "任务中已有名为 {name} 的队伍" },
    "error.emptyCode": { en: "the code is empty", ru: "код пустой", fr: "le code est vide",
      de: "der Code ist leer", zh: "代码为空" },
    "error.wrongLocationCode": { en: "{code} is not a location code of this quest",
      ru: "{code} — не код локации этого квеста",
      fr: "{code} n'est pas un code de lieu de cette quête",
      de: "{code} ist kein Orts-Code dieser Quest", zh: "{code} 不是本任务的地点代码" },
    "error.otherQuestCode": { en: "{code} is a location code of another quest",
      ru: "{code} — код локации другого квеста",
      fr: "{code} est un code de lieu d'une autre quête",
      de: "{code} ist ein Orts-Code einer anderen Quest", zh: "{code} 是另一个任务的地点代码" },
    "error.alreadyFound": { en: "already found: {code} is the segment at row {row}, column {col}",
      ru: "уже найдено: {code} — сегмент в строке {row}, столбце {col}",
      fr: "déjà trouvé : {code} est le tuyau ligne {row}, colonne {col}",
      de: "schon gefunden: {code} ist das Rohrstück in Zeile {row}, Spalte {col}",
      zh: "已找到：{code} 是第 {row} 行第 {col} 列的管段" },
    "error.tooManyAttempts": { en: "too many attempts; try again in {seconds} s",
      ru: "слишком много попыток; попробуйте через {seconds} с",
      fr: "trop d'essais ; réessayez dans {seconds} s",
      de: "zu viele Versuche; versuche es in {seconds} s erneut",
      zh: "尝试次数过多，请 {seconds} 秒后再试" },
    // --- the pipe codes' check and the quest (api_pipes.py, api_quest.py) ---
    "error.badCodeRequest": { en: "send the code as {\"code\": \"AKEZ...\"}",
      ru: "пришлите код в виде {\"code\": \"AKEZ...\"}",
      fr: "envoyez le code sous la forme {\"code\": \"AKEZ...\"}",
      de: "sende den Code als {\"code\": \"AKEZ...\"}", zh: "请以 {\"code\": \"AKEZ...\"} 的形式发送密码" },
    "error.codeTooLong": { en: "the code is longer than {limit} characters",
      ru: "код длиннее {limit} символов", fr: "le code dépasse {limit} caractères",
      de: "der Code ist länger als {limit} Zeichen", zh: "密码超过 {limit} 个字符" },
    "error.tooManyChecks": { en: "too many codes checked; try again in {seconds} s",
      ru: "слишком много проверок кодов; попробуйте через {seconds} с",
      fr: "trop de codes vérifiés ; réessayez dans {seconds} s",
      de: "zu viele Codes geprüft; versuche es in {seconds} s erneut",
      zh: "检查的密码过多，请 {seconds} 秒后再试" },
    "error.pipesTooManySolutions": { en: "this level has too many solutions to check here",
      ru: "у этого уровня слишком много решений, чтобы проверить код здесь",
      fr: "ce niveau a trop de solutions pour être vérifié ici",
      de: "dieses Level hat zu viele Lösungen, um hier zu prüfen",
      zh: "这个关卡的解太多，无法在此检查" },

    // --- more of the pages; the board's kinds of board and piece (board.js) ---
    playerOfAny: { en: "{name}", ru: "{name}", fr: "de {name}", de: "{name}", zh: "{name}" },
    pipesTap: { en: "tap", ru: "кран", fr: "robinet", de: "Hahn", zh: "水龙头" },
    pipesDrain: { en: "drain", ru: "сток", fr: "évacuation", de: "Abfluss", zh: "排水口" },
    pipesGrid: { en: "pipe grid {rows} by {cols}", ru: "сетка труб {rows} на {cols}",
      fr: "grille de tuyaux {rows} sur {cols}", de: "Rohrgitter {rows} mal {cols}",
      zh: "{rows} × {cols} 水管网格" },
    pipesPageTitle: { en: "boardlab plumber", ru: "boardlab: водопроводчик",
      fr: "boardlab : plombier", de: "boardlab: Klempner", zh: "boardlab 水管工" },
    pipesSample: { en: "sample {n}", ru: "пример {n}", fr: "exemple {n}", de: "Beispiel {n}",
      zh: "示例 {n}" },
    pipesRandomLevel: { en: "random {size}x{size} #{seed}", ru: "случайный {size}×{size} №{seed}",
      fr: "aléatoire {size}x{size} n° {seed}", de: "zufällig {size}x{size} Nr. {seed}",
      zh: "随机 {size}x{size} #{seed}" },
    pipesLevelSize: { en: "{name} ({rows}x{cols})", ru: "{name} ({rows}×{cols})",
      fr: "{name} ({rows}x{cols})", de: "{name} ({rows}x{cols})", zh: "{name}（{rows}x{cols}）" },
    "piece.marble": { en: "marble", ru: "шар", fr: "bille", de: "Kugel", zh: "弹珠" },
    "piece.pawn": { en: "pawn", ru: "пешка", fr: "pion", de: "Bauer", zh: "兵" },
    "piece.man": { en: "man", ru: "фишка", fr: "pion", de: "Stein", zh: "棋子" },
    "piece.stone": { en: "stone", ru: "камень", fr: "pierre", de: "Stein", zh: "石子" },
    "piece.white": { en: "white", ru: "белая фишка", fr: "pion blanc", de: "weißer Stein",
      zh: "白子" },
    "piece.black": { en: "black", ru: "чёрная фишка", fr: "pion noir", de: "schwarzer Stein",
      zh: "黑子" },
    "boardKind.square": { en: "square", ru: "квадратная", fr: "carré", de: "quadratisch",
      zh: "方形" },
    "boardKind.hex": { en: "hex", ru: "шестиугольная", fr: "hexagonal", de: "sechseckig",
      zh: "六角" },
    "boardKind.graph": { en: "graph", ru: "из точек и линий", fr: "de points et de lignes",
      de: "aus Punkten und Linien", zh: "点线" },
    "boardKind.grid3d": { en: "3D grid", ru: "объёмная", fr: "en 3D", de: "3D", zh: "立体" },
    yes: { en: "yes", ru: "да", fr: "oui", de: "ja", zh: "是" },
    no: { en: "no", ru: "нет", fr: "non", de: "nein", zh: "否" },

    // --- the board (board.js) ---
    boardLabel: {
      en: { one: "{kind} board of {n} cell", other: "{kind} board of {n} cells" },
      ru: { one: "доска {kind} из {n} клетки", few: "доска {kind} из {n} клеток",
        many: "доска {kind} из {n} клеток", other: "доска {kind} из {n} клетки" },
      fr: { one: "plateau {kind} de {n} case", other: "plateau {kind} de {n} cases" },
      de: { one: "Brett {kind} mit {n} Feld", other: "Brett {kind} mit {n} Feldern" },
      zh: { other: "{kind} 棋盘，共 {n} 格" }
    },
    pieceOf: { en: "{cell}: {kind} of player {n}", ru: "{cell}: {kind} игрока {n}",
      fr: "{cell} : {kind} du joueur {n}", de: "{cell}: {kind} von Spieler {n}",
      zh: "{cell}：玩家 {n} 的 {kind}" },
    layerN: { en: "layer {n}", ru: "слой {n}", fr: "couche {n}", de: "Ebene {n}",
      zh: "第 {n} 层" },
    boardHelp: {
      en: "Click a piece, then where it goes; or an empty cell to place. With the keyboard: Tab to the board, arrow keys to move between cells, Enter to choose.",
      ru: "Нажмите на фигуру, затем на клетку, куда она идёт, или на пустую клетку, чтобы поставить. С клавиатуры: Tab до доски, стрелки между клетками, Enter — выбрать.",
      fr: "Cliquez sur une pièce, puis là où elle va ; ou sur une case vide pour poser. Au clavier : Tab jusqu'au plateau, flèches pour changer de case, Entrée pour choisir.",
      de: "Klicken Sie auf einen Stein und dann auf sein Ziel, oder auf ein leeres Feld zum Setzen. Mit der Tastatur: Tab zum Brett, Pfeiltasten zwischen den Feldern, Enter zum Wählen.",
      zh: "点击棋子，再点击目标格；或点击空格落子。键盘：按 Tab 进入棋盘，方向键移动，回车选择。"
    },
    groupHelp: {
      en: "To move several pieces together, drag across them, or shift-click each one; then click where the group goes.",
      ru: "Чтобы двинуть несколько фигур вместе, проведите по ним или нажимайте на каждую с Shift; затем нажмите, куда идёт группа.",
      fr: "Pour déplacer plusieurs pièces ensemble, glissez sur elles ou cliquez sur chacune avec Maj ; puis cliquez là où va le groupe.",
      de: "Um mehrere Steine zusammen zu ziehen, streichen Sie über sie oder klicken Sie jeden mit Umschalt an; dann klicken Sie auf das Ziel der Gruppe.",
      zh: "要一起移动多枚棋子，请拖过它们，或按住 Shift 逐个点击；然后点击整组要去的位置。"
    },
    arrowHelp: {
      en: "or click an arrow on the board",
      ru: "или нажмите на стрелку на доске",
      fr: "ou cliquez sur une flèche du plateau",
      de: "oder klicken Sie auf einen Pfeil auf dem Brett",
      zh: "或点击棋盘上的箭头"
    }
  };

  // The shared machinery (phrases.js): plural forms, parameters, "N ... ago".
  // "N seconds/minutes/hours/days ago" comes with the machinery (P.AGO).
  var table = P.phrases(LANGUAGES, MESSAGES);
  MESSAGES = table.messages;
  var SUPPORTED = table.supported;
  var pickLanguage = table.pickLanguage;
  var pluralCategory = P.pluralCategory;
  var plural = P.plural;
  var translate = table.translate;
  var agoIn = table.ago;

  // --- the page's language ------------------------------------------------------------------
  var current = "en";
  var listeners = [];

  function storage() {
    try {
      return typeof localStorage !== "undefined" ? localStorage : null;
    } catch (e) {
      return null;
    }
  }

  /** The language to start with: the remembered choice, else navigator.languages. */
  function initialLanguage() {
    var store = storage();
    var saved = store && store.getItem(STORAGE_KEY);
    if (saved && SUPPORTED.indexOf(saved) >= 0) return saved;
    var nav = typeof navigator !== "undefined" ? navigator : null;
    return pickLanguage(nav ? (nav.languages && nav.languages.length ? nav.languages
      : [nav.language]) : []);
  }

  function t(key, params) {
    return translate(current, key, params);
  }

  function ago(seconds) {
    return agoIn(current, seconds);
  }

  /** Whether the table has the phrase `key`. */
  function has(key) {
    return Object.prototype.hasOwnProperty.call(MESSAGES, key);
  }

  /** The phrase `key` in the page's language, or `fallback` (the server's own text) when
   * the table has no such phrase. */
  function phrase(key, fallback, params) {
    return has(key) ? t(key, params) : fallback;
  }

  /** Give `element` the phrase `key` (kept across changes of language), or the text
   * `fallback` when the table has no such phrase. */
  function setPhrase(element, key, fallback, params) {
    if (has(key)) return setText(element, key, params);
    delete element.dataset.i18n;
    element.textContent = fallback;
    return element;
  }

  /** A player as a game names it ("black", "White", "X"), in the page's language; English
   * keeps the game's own spelling, and a name the table lacks is shown as it is. */
  function playerName(name) {
    if (current === "en") return String(name);
    return phrase("player." + String(name).toLowerCase(), String(name));
  }

  /** A player's name in the form that follows "the move of", "the seat of"... (Russian
   * чёрных, French des Noirs): the phrases' {of}. */
  function playerOf(name) {
    if (current === "en") return String(name);
    var key = "playerOf." + String(name).toLowerCase();
    return has(key) ? t(key) : t("playerOfAny", { name: name });
  }

  /** A registered game's title ("game.<id>"), or `fallback` for another game. */
  function gameTitle(id, fallback) {
    return phrase("game." + id, fallback === undefined ? id : fallback);
  }

  /** The message of a JSON error body ({error, code, params}) in the page's language:
   * the phrase "error.<code>", or the server's English `error` for a code the table does
   * not know. A `player` parameter is a player's name, shown as {player} and {of}. */
  function errorText(body, fallback) {
    var code = body && body.code;
    if (code && has("error." + code)) {
      var params = {};
      var given = body.params || {};
      Object.keys(given).forEach(function (k) { params[k] = given[k]; });
      if (given.player !== undefined) {
        params.player = playerName(given.player);
        params.of = playerOf(given.player);
      }
      return t("error." + code, params);
    }
    return (body && body.error) || fallback || "";
  }

  /** A duration in `lang`: "42 seconds" under a minute, then m:ss or h:mm:ss. */
  function durationIn(lang, seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    if (seconds < 60) return translate(lang, "seconds", { n: seconds });
    var h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
    var two = function (v) { return (v < 10 ? "0" : "") + v; };
    return h ? h + ":" + two(m) + ":" + two(s) : m + ":" + two(s);
  }

  var ATTRIBUTES = [["i18nTitle", "title"], ["i18nPlaceholder", "placeholder"],
    ["i18nAriaLabel", "aria-label"]];

  function paramsOf(element) {
    try {
      return element.dataset.i18nParams ? JSON.parse(element.dataset.i18nParams) : undefined;
    } catch (e) {
      return undefined;
    }
  }

  /** Translate every marked element under `root` (the document by default). */
  function translatePage(root) {
    root = root || document;
    var marked = root.querySelectorAll("[data-i18n], [data-i18n-title], " +
      "[data-i18n-placeholder], [data-i18n-aria-label]");
    for (var i = 0; i < marked.length; i++) {
      var element = marked[i];
      var params = paramsOf(element);
      if (element.dataset.i18n) element.textContent = t(element.dataset.i18n, params);
      for (var j = 0; j < ATTRIBUTES.length; j++) {
        var key = element.dataset[ATTRIBUTES[j][0]];
        if (key) element.setAttribute(ATTRIBUTES[j][1], t(key, params));
      }
    }
  }

  /** Give `element` the phrase `key` now and after every change of language. */
  function setText(element, key, params) {
    element.dataset.i18n = key;
    if (params) element.dataset.i18nParams = JSON.stringify(params);
    else delete element.dataset.i18nParams;
    element.textContent = t(key, params);
    return element;
  }

  /** Switch the page to `lang`, remember it, retranslate and tell the listeners. */
  function setLanguage(lang) {
    current = SUPPORTED.indexOf(lang) >= 0 ? lang : "en";
    var store = storage();
    if (store) {
      try {
        store.setItem(STORAGE_KEY, current);
      } catch (e) { /* private mode: the choice lasts for this page only */ }
    }
    apply();
    for (var i = 0; i < listeners.length; i++) listeners[i](current);
  }

  function apply() {
    if (typeof document === "undefined") return;
    document.documentElement.lang = current;
    translatePage(document);
    var selects = document.querySelectorAll("select.language");
    for (var i = 0; i < selects.length; i++) selects[i].value = current;
  }

  /** Start the page: pick the language, fill the selectors (select.language), translate. */
  function init() {
    current = initialLanguage();
    var selects = document.querySelectorAll("select.language");
    for (var i = 0; i < selects.length; i++) {
      var select = selects[i];
      select.replaceChildren();
      LANGUAGES.forEach(function (l) {
        var option = document.createElement("option");
        option.value = l.code;
        option.textContent = l.name;
        option.lang = l.code;
        select.appendChild(option);
      });
      select.addEventListener("change", function (event) {
        setLanguage(event.target.value);
      });
    }
    apply();
    return current;
  }

  /** Call `listener(lang)` after every change of language. */
  function onChange(listener) {
    listeners.push(listener);
  }

  return { STORAGE_KEY: STORAGE_KEY, LANGUAGES: LANGUAGES, MESSAGES: MESSAGES,
    pickLanguage: pickLanguage, pluralCategory: pluralCategory, plural: plural,
    translate: translate, agoIn: agoIn, durationIn: durationIn, t: t, ago: ago,
    init: init, onChange: onChange,
    setLanguage: setLanguage, setText: setText, translatePage: translatePage,
    has: has, phrase: phrase, setPhrase: setPhrase, playerName: playerName,
    playerOf: playerOf, gameTitle: gameTitle, errorText: errorText,
    language: function () { return current; } };
});
