/* Triplex: every string of the game in English, Russian, French, German and Chinese.
 *
 * The original game (docs/triplex.md; its article's "Интернационализация и локализации") kept one
 * table of phrases with a translation per language and functions for the phrases that
 * depend on a number ("N секунд/минут/часов/дней назад"). Here a phrase is either a string or
 * an object of CLDR plural categories (one, few, many, other) chosen by Intl.PluralRules, so
 * Russian gets 1 секунду, 2 секунды, 5 секунд, 21 секунду without hand-written rules.
 * `{name}` in a phrase is replaced by the parameter of that name.
 *
 * Loads as a browser script (global `TriplexI18n`, after ../js/phrases.js) and as a
 * CommonJS module.
 */
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) {
    module.exports = factory(require("../js/phrases.js"));
  } else {
    root.TriplexI18n = factory(root.BoardlabPhrases);
  }
})(typeof self !== "undefined" ? self : this, function (P) {
  "use strict";

  // The five languages, in the order the selectors list them (phrases.js).
  var LANGUAGES = P.LANGUAGES;

  var MESSAGES = {
    title: { en: "Triplex", ru: "Триплекс", fr: "Triplex", de: "Triplex", zh: "三联方块" },
    language: { en: "Language", ru: "Язык", fr: "Langue", de: "Sprache", zh: "语言" },
    rules: {
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
    levels: { en: "Levels", ru: "Уровни", fr: "Niveaux", de: "Level", zh: "关卡" },
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
    yourName: { en: "Your name", ru: "Ваше имя", fr: "Votre nom", de: "Dein Name",
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
    }
  };

  // The shared machinery (../js/phrases.js): plural forms, parameters, "N ... ago".
  // "N seconds/minutes/hours/days ago" comes with the machinery (P.AGO).
  var table = P.phrases(LANGUAGES, MESSAGES);
  MESSAGES = table.messages;
  var pickLanguage = table.pickLanguage;
  var pluralCategory = P.pluralCategory;
  var plural = P.plural;
  var t = table.translate;
  var ago = table.ago;

  /** A solve time: "42 seconds" under a minute, then m:ss or h:mm:ss. */
  function duration(lang, seconds) {
    seconds = Math.max(0, Math.floor(seconds));
    if (seconds < 60) return t(lang, "seconds", { n: seconds });
    var h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
    var two = function (v) { return (v < 10 ? "0" : "") + v; };
    return h ? h + ":" + two(m) + ":" + two(s) : m + ":" + two(s);
  }

  return { LANGUAGES: LANGUAGES, MESSAGES: MESSAGES, pickLanguage: pickLanguage,
    pluralCategory: pluralCategory, plural: plural, t: t, ago: ago, duration: duration };
});
