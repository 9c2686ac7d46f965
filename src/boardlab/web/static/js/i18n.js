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
 * (pipes..., triplex...).
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
      ru: "Игра окончена: победа {name} ({score})",
      fr: "Partie terminée : {name} gagne ({score})",
      de: "Spiel vorbei: {name} gewinnt ({score})", zh: "游戏结束：{name} 获胜（{score}）" },
    gameOver: { en: "Game over: {score}", ru: "Игра окончена: {score}",
      fr: "Partie terminée : {score}", de: "Spiel vorbei: {score}", zh: "游戏结束：{score}" },
    thinking: { en: "{name} is thinking…", ru: "{name} думает…", fr: "{name} réfléchit…",
      de: "{name} denkt nach…", zh: "{name} 正在思考…" },
    toMove: { en: "{name} to move", ru: "ходит {name}", fr: "au tour de {name}",
      de: "{name} ist am Zug", zh: "轮到 {name}" },
    botToMove: { en: "{name} (bot) to move", ru: "ходит {name} (бот)",
      fr: "au tour de {name} (bot)", de: "{name} (Bot) ist am Zug", zh: "轮到 {name}（机器人）" },
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
    seatOpen: { en: "{name}'s seat is open.", ru: "Место «{name}» свободно.",
      fr: "La place de {name} est libre.", de: "Der Platz von {name} ist frei.",
      zh: "{name}的座位空着。" },
    joinAs: { en: "play as {name}", ru: "играть за «{name}»", fr: "jouer {name}",
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
    drawOffered: { en: "{name} offers a draw.", ru: "«{name}» предлагает ничью.",
      fr: "{name} propose la nulle.", de: "{name} bietet Remis an.", zh: "{name}提和。" },
    takebackAsked: { en: "{name} asks to take back a move.",
      ru: "«{name}» просит вернуть ход.", fr: "{name} demande à reprendre un coup.",
      de: "{name} möchte einen Zug zurücknehmen.", zh: "{name}请求悔棋。" },
    waitingForAnswer: { en: "waiting for the answer…", ru: "ждём ответа…",
      fr: "en attente de la réponse…", de: "warte auf die Antwort…", zh: "等待对方回应…" },
    accept: { en: "accept", ru: "принять", fr: "accepter", de: "annehmen", zh: "接受" },
    decline: { en: "decline", ru: "отклонить", fr: "refuser", de: "ablehnen", zh: "拒绝" },
    rematch: { en: "rematch", ru: "реванш", fr: "revanche", de: "Revanche", zh: "再来一局" },
    newGameButton: { en: "new game", ru: "новая партия", fr: "nouvelle partie",
      de: "neue Partie", zh: "新对局" },
    reasonTime: { en: "{name} ran out of time.", ru: "У «{name}» кончилось время.",
      fr: "{name} a dépassé le temps.", de: "{name} hat die Zeit überschritten.",
      zh: "{name}超时。" },
    reasonResignation: { en: "{name} resigned.", ru: "«{name}» сдался.",
      fr: "{name} a abandonné.", de: "{name} hat aufgegeben.", zh: "{name}认输。" },
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
    submitted: { en: "Your time was sent to the leaderboard.",
      ru: "Ваше время отправлено в таблицу рекордов.",
      fr: "Votre temps a été envoyé au classement.",
      de: "Deine Zeit wurde an die Bestenliste gesendet.",
      zh: "你的用时已提交到排行榜。" },
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
    language: function () { return current; } };
});
