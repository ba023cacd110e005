"""How players ask about the rules: the words the rules search understands beyond the rules' own.

Data, per language, outside gettext: these phrasings are never shown, so they are not translations of
one English text; each language's players have their own words ("pioche", "마지막", "平局"), and a
list grows in one language without asking the translators for the others.
"""

from __future__ import annotations

from typing import Final

PLAYER_WORDS: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "en": (
        ("closer", "completed territory"),
        ("closed", "completed"),
        ("close", "completed"),
        ("finish*", "completed"),
        ("lake", "territory"),
        ("forest", "territory"),
        ("mountain", "territory"),
        ("field", "territory"),
        ("prairie", "territory"),
        ("pile", "supply left"),
        ("deck", "cards left"),
        ("stack", "supply left"),
        ("bank", "supply"),
        ("empty", "runs out left"),
        ("ran out", "runs out"),
        ("run out", "runs out"),
        ("running out", "runs out"),
        ("none left", "left"),
        ("gone", "runs out"),
        ("point", "VP"),
        ("victory", "wins"),
        ("won", "wins"),
        ("winning", "wins"),
        ("tiebreak", "tie"),
        ("tie-break", "tie"),
        ("equal", "tie"),
        ("same", "tie"),
        ("both have", "tie"),
        ("only one with", "alone"),
        ("only player", "alone"),
        ("by myself", "alone"),
        ("nobody else", "alone"),
        ("boat", "ship"),
        ("worth", "VP"),
        ("chip", "token"),
        ("bonus", "special action"),
        ("power", "special action"),
        ("least", "lowest"),
        ("swap", "swap trade"),
        ("minus", "−1 VP"),
        ("penalty", "−1 VP"),
    ),
    "fr": (
        ("qui ferme", "complété"),
        ("fermé", "complété"),
        ("fini", "complété"),
        ("clôtur*", "complété"),
        ("lac", "territoire"),
        ("forêt", "territoire"),
        ("montagne", "territoire"),
        ("prairie", "territoire"),
        ("pioche", "reste réserve"),
        ("paquet", "reste"),
        ("tas", "réserve"),
        ("stock", "réserve"),
        ("vide", "épuisée reste"),
        ("n'y a plus", "épuisée reste"),
        ("épuis*", "épuisée"),
        ("tout seul", "seul"),
        ("le seul", "seul"),
        ("unique", "seul"),
        ("ex aequo", "égalité"),
        ("ex-aequo", "égalité"),
        ("égaux", "égalité"),
        ("même nombre", "égalité"),
        ("pareil", "égalité"),
        ("autant", "égalité"),
        ("départag*", "égalité"),
        ("point", "PV"),
        ("victoire", "gagne"),
        ("gagnant", "gagne vainqueur"),
        ("bateau", "navire"),
        ("or", "pépites"),
        ("bonus", "action spéciale"),
        ("pouvoir", "action spéciale"),
        ("malus", "−1 PV"),
    ),
    "it": (
        ("chiuso", "completato"),
        ("chiude", "completato"),
        ("finito", "completato"),
        ("lago", "territorio"),
        ("foresta", "territorio"),
        ("montagna", "territorio"),
        ("prateria", "territorio"),
        ("mazzo", "restano"),
        ("pila", "riserva"),
        ("scorta", "riserva"),
        ("vuot*", "esaurisce restano"),
        ("finit*", "esaurisce restano"),
        ("non ci sono più", "esaurisce restano"),
        ("non ce ne sono", "esaurisce restano"),
        ("esaurit*", "esaurisce"),
        ("pareggio", "parità"),
        ("pareggi*", "parità"),
        ("pari", "parità"),
        ("stesso numero", "parità"),
        ("stessi punti", "parità"),
        ("unico", "da solo"),
        ("solo io", "da solo"),
        ("punt*", "PV"),
        ("vittoria", "vince"),
        ("vincitore", "vince"),
        ("barca", "nave"),
        ("oro", "pepite"),
        ("bonus", "azione speciale"),
        ("malus", "−1 PV"),
    ),
    "ko": (
        ("비기", "동점"),
        ("비겼", "동점"),
        ("무승부", "동점"),
        ("같으면", "동점"),
        ("같은", "동점"),
        ("똑같", "동점"),
        ("공동", "동점"),
        ("타이", "동점"),
        ("닫은", "완성"),
        ("마무리", "완성"),
        ("끝낸", "완성"),
        ("떨어", "다 떨어진 남은"),
        ("바닥", "다 떨어진 남은"),
        ("다 쓰", "다 떨어진 남은"),
        ("없으면", "남은"),
        ("나만", "혼자"),
        ("단독", "혼자"),
        ("나밖에", "혼자"),
        ("한 명만", "혼자"),
        ("골드", "금덩이"),
        ("호수", "영역"),
        ("숲", "영역"),
        ("초원", "영역"),
        ("포인트", "승점"),
        ("점수", "승점"),
        ("이겨", "이깁니다 승자"),
        ("이기", "이깁니다 승자"),
        ("승리", "이깁니다"),
        ("보트", "배"),
        ("더미", "공급처"),
        ("덱", "카드 남아"),
        ("감점", "승점 −1"),
        ("마이너스", "승점 −1"),
        ("맞교환", "맞바꿉니다"),
        ("교환", "맞바꿉니다"),
        ("보너스", "특수 행동"),
    ),
    "zh-hant": (
        ("同分", "平手"),
        ("平局", "平手"),
        ("打平", "平手"),
        ("一樣", "平手"),
        ("相同", "平手"),
        ("並列", "平手"),
        ("和局", "平手"),
        ("蓋完", "完成"),
        ("收掉", "完成"),
        ("封閉", "完成"),
        ("沒了", "用完 剩"),
        ("抽完", "用完 還有"),
        ("沒有了", "用完 剩"),
        ("用光", "用完"),
        ("空了", "用完"),
        ("拿完", "用完"),
        ("只有我", "獨自"),
        ("一個人", "獨自"),
        ("單獨", "獨自"),
        ("金子", "金塊"),
        ("金礦", "金塊"),
        ("黃金", "金塊"),
        ("湖", "區域"),
        ("森林", "區域"),
        ("草原", "區域"),
        ("贏", "獲勝 勝利者"),
        ("點數", "分"),
        ("房子", "建築 房屋"),
        ("錨", "船錨"),
        ("扣分", "−1 分"),
        ("牌庫", "還有卡"),
        ("牌堆", "還有卡"),
        ("指示物", "標記"),
        ("代幣", "標記"),
        ("換", "交換"),
    ),
}
"""Per language: (what players say, the rules' words for it). The search adds the rules' words to a
question that contains the players' words (at the start of a word; anywhere in Korean and Chinese)."""

ASKED_AS: Final[dict[str, dict[str, tuple[str, ...]]]] = {
    "okanagan.placement": {
        "en": (
            "where does a building count",
            "silo on the corner counts in three territories",
            "warehouse on the border counts twice",
            "does a farm count next door",
        ),
        "fr": (
            "où compte un bâtiment",
            "le silo compte dans tous les territoires autour",
            "l'entrepôt sur la frontière compte des deux côtés",
        ),
        "ko": (
            "건물은 어느 영역에 들어가나요",
            "사일로는 주변 영역 전부",
            "창고는 경계에 있어서 양쪽 영역",
            "농장은 자기 영역만",
        ),
        "it": (
            "dove conta un edificio",
            "il silo conta in tutti i territori intorno",
            "il magazzino sul confine conta da entrambe le parti",
        ),
        "zh-hant": (
            "建築算在哪個區域",
            "筒倉算周圍所有區域",
            "倉庫在邊界兩邊都算",
            "農場只算一個區域",
        ),
    },
    "okanagan.influence": {
        "en": (
            "how much influence does each building give",
            "farm 3 warehouse 2 silo 1",
            "counting influence",
            "how strong is a farm",
        ),
        "fr": (
            "combien d'influence donne chaque bâtiment",
            "ferme 3 entrepôt 2 silo 1",
            "calcul de l'influence",
            "valeur d'une ferme",
        ),
        "ko": (
            "건물마다 영향력 몇",
            "농장 3 창고 2 사일로 1",
            "영향력 계산",
            "농장은 영향력 얼마",
        ),
        "it": (
            "quanta influenza dà ogni edificio",
            "fattoria 3 magazzino 2 silo 1",
            "calcolo dell'influenza",
            "quanto vale una fattoria",
        ),
        "zh-hant": (
            "每種建築幾點影響力",
            "農場3 倉庫2 筒倉1",
            "影響力怎麼算",
            "農場值多少",
        ),
    },
    "okanagan.influence.order": {
        "en": (
            "who goes first when collecting",
            "ranking by influence",
            "highest influence first",
        ),
        "fr": (
            "qui est premier",
            "classement par influence",
            "la plus forte influence d'abord",
        ),
        "ko": (
            "누가 먼저",
            "영향력 순위",
            "영향력 높은 사람부터",
        ),
        "it": (
            "chi è primo",
            "classifica per influenza",
            "la più alta influenza prima",
        ),
        "zh-hant": (
            "誰先",
            "影響力排名",
            "影響力高的先",
        ),
    },
    "okanagan.influence.tie": {
        "en": (
            "tie in influence who goes first",
            "same influence who decides the order",
            "the player who closed the territory breaks the tie",
            "can the closer put himself last",
        ),
        "fr": (
            "égalité d'influence qui passe devant",
            "même influence qui décide l'ordre",
            "celui qui complète le territoire départage",
            "peut-il se mettre derrière",
        ),
        "ko": (
            "영향력 동점 순서 누가 정해",
            "영향력 같으면 누가 먼저",
            "영역 완성한 사람이 순서 결정",
            "자기를 뒤로 둘 수 있나",
        ),
        "it": (
            "parità di influenza chi va prima",
            "stessa influenza chi decide l'ordine",
            "chi completa il territorio decide lo spareggio",
            "può mettersi dietro",
        ),
        "zh-hant": (
            "影響力平手誰先",
            "影響力一樣誰決定順序",
            "完成區域的人決定平手順序",
            "可以把自己排後面嗎",
        ),
    },
    "okanagan.territory.empty": {
        "en": (
            "nobody built in a completed territory",
            "no buildings at all",
            "empty territory who gets the special action",
            "nobody has influence",
        ),
        "fr": (
            "personne n'a construit dans un territoire complété",
            "aucun bâtiment",
            "territoire vide qui fait l'action spéciale",
        ),
        "ko": (
            "아무도 건물이 없는 영역",
            "아무도 안 지은 영역 완성",
            "빈 영역 특수 행동 누가",
        ),
        "it": (
            "nessuno ha costruito nel territorio completato",
            "nessun edificio",
            "territorio vuoto chi fa l'azione speciale",
        ),
        "zh-hant": (
            "完成的區域沒人蓋建築",
            "沒有人有影響力",
            "空的區域誰執行特殊行動",
        ),
    },
    "okanagan.special.lowest": {
        "en": (
            "who does the special action",
            "who picks the special action",
            "the player with the least influence takes the action",
            "last place in the territory gets the action",
        ),
        "fr": (
            "qui fait l'action spéciale",
            "qui choisit l'action spéciale",
            "le joueur avec le moins d'influence prend l'action",
            "le dernier du territoire",
        ),
        "ko": (
            "특수 행동 누가 해",
            "특수 행동 누가 골라",
            "영향력 제일 낮은 사람이 특수 행동",
            "꼴찌가 특수 행동",
        ),
        "it": (
            "chi fa l'azione speciale",
            "chi sceglie l'azione speciale",
            "il giocatore con meno influenza prende l'azione",
            "l'ultimo del territorio",
        ),
        "zh-hant": (
            "誰做特殊行動",
            "誰選特殊行動",
            "影響力最低的人執行特殊行動",
            "最後一名拿特殊行動",
        ),
    },
    "okanagan.special.lone": {
        "en": (
            "only player in a territory",
            "alone in the territory do I get both special action and rewards",
            "only one with buildings there",
            "special action or rewards not both",
        ),
        "fr": (
            "seul joueur dans le territoire",
            "seul dans le territoire ai-je l'action spéciale et les récompenses",
            "l'un ou l'autre pas les deux",
        ),
        "ko": (
            "영역에 혼자 있으면 특수 행동이랑 보상 둘 다",
            "나 혼자 건물 있음",
            "특수 행동 아니면 보상 하나만",
        ),
        "it": (
            "unico giocatore nel territorio",
            "da solo nel territorio prendo azione speciale e ricompense",
            "una o l'altra non entrambe",
        ),
        "zh-hant": (
            "區域只有一個玩家",
            "獨自一人在區域可以拿特殊行動和獎勵嗎",
            "二選一不能都拿",
        ),
    },
    "okanagan.special.from_supply": {
        "en": (
            "where do special action tokens come from",
            "do action rewards come from the territory or the general supply",
            "action tokens taken from the box",
        ),
        "fr": (
            "d'où viennent les jetons de l'action spéciale",
            "réserve générale ou territoire",
            "jetons pris dans la boîte",
        ),
        "ko": (
            "특수 행동 토큰 어디서 가져와",
            "공급처에서 가져와 영역에서 가져와",
            "상자에서",
        ),
        "it": (
            "da dove vengono i gettoni dell'azione speciale",
            "dalla riserva generale o dal territorio",
        ),
        "zh-hant": (
            "特殊行動的獎勵從哪裡拿",
            "從供應區還是從區域拿",
        ),
    },
    "okanagan.special.reward_of_shape": {
        "en": (
            "plus one reward of a shape",
            "take a token of the shown shape any colour",
        ),
        "fr": (
            "une récompense de la forme au choix",
            "jeton de cette forme n'importe quelle couleur",
        ),
        "ko": (
            "모양 보상 하나 추가",
            "그 모양 아무 색",
        ),
        "it": (
            "una ricompensa della forma a scelta",
            "gettone di quella forma qualsiasi colore",
        ),
        "zh-hant": (
            "拿一個該形狀的獎勵",
            "任意顏色",
        ),
    },
    "okanagan.special.two_rewards": {
        "en": (
            "plus two rewards action",
            "take two tokens of the kind shown",
        ),
        "fr": (
            "action deux récompenses",
            "prendre deux jetons du type montré",
        ),
        "ko": (
            "보상 두 개 받는 특수 행동",
            "같은 종류 토큰 두 개",
        ),
        "it": (
            "azione due ricompense",
            "prendere due gettoni del tipo mostrato",
        ),
        "zh-hant": (
            "拿兩個獎勵的特殊行動",
            "兩個同種類標記",
        ),
    },
    "okanagan.special.two_rewards.shortage": {
        "en": (
            "only one token left but the action gives two",
            "not enough tokens for plus two",
            "supply has one left",
        ),
        "fr": (
            "il ne reste qu'un jeton pour l'action deux récompenses",
            "pas assez de jetons",
        ),
        "ko": (
            "토큰이 하나만 남았는데 두 개 받는 행동",
            "토큰이 모자라면",
        ),
        "it": (
            "resta un solo gettone ma l'azione ne dà due",
            "non ci sono abbastanza gettoni",
        ),
        "zh-hant": (
            "只剩一個標記但要拿兩個",
            "標記不夠",
        ),
    },
    "okanagan.special.choose_first": {
        "en": (
            "pick rewards first action",
            "choose before the others",
            "go first when collecting",
        ),
        "fr": (
            "choisir ses récompenses en premier",
            "passer devant pour la récolte",
        ),
        "ko": (
            "보상 먼저 고르기",
            "다른 사람보다 먼저 가져가기",
        ),
        "it": (
            "scegliere le ricompense per primo",
            "passare davanti nella raccolta",
        ),
        "zh-hant": (
            "先選獎勵",
            "比別人先拿",
        ),
    },
    "okanagan.special.gold_nugget": {
        "en": (
            "draw a gold nugget card action",
            "what if the nugget deck is empty",
            "no nugget cards left to draw",
        ),
        "fr": (
            "piocher une carte pépite",
            "plus de cartes pépite à piocher",
            "la pioche de pépites est vide",
        ),
        "ko": (
            "금덩이 카드 뽑기",
            "금덩이 카드가 더 없으면",
            "금덩이 덱이 비었을 때",
        ),
        "it": (
            "pescare una carta pepita",
            "finite le carte pepita",
            "mazzo delle pepite vuoto",
        ),
        "zh-hant": (
            "抽金塊卡",
            "金塊卡沒了",
            "金塊牌堆空了",
        ),
    },
    "okanagan.special.new_objectives": {
        "en": (
            "draw two objective cards and discard two",
            "new goals action",
        ),
        "fr": (
            "piocher deux objectifs et en défausser deux",
            "nouveaux objectifs",
        ),
        "ko": (
            "목표 카드 두 장 뽑고 두 장 버리기",
            "새 목표",
        ),
        "it": (
            "pescare due obiettivi e scartarne due",
            "nuovi obiettivi",
        ),
        "zh-hant": (
            "抽兩張目標卡棄兩張",
            "新目標",
        ),
    },
    "okanagan.special.gifts": {
        "en": (
            "everyone gives me a reward",
            "each opponent gives one token of their choice",
            "who chooses the gift",
        ),
        "fr": (
            "chaque joueur me donne une récompense",
            "cadeau de chaque adversaire",
            "qui choisit le cadeau",
        ),
        "ko": (
            "다른 사람들이 보상 하나씩 줘",
            "선물",
            "누가 골라서 줘",
        ),
        "it": (
            "ogni giocatore mi dà una ricompensa",
            "regalo da ogni avversario",
            "chi sceglie il regalo",
        ),
        "zh-hant": (
            "每個人給我一個獎勵",
            "送禮",
            "誰選要給的",
        ),
    },
    "okanagan.special.trade": {
        "en": (
            "trade a token with another player",
            "swap rewards with an opponent",
        ),
        "fr": (
            "échanger un jeton avec un autre joueur",
            "troquer une récompense avec un adversaire",
        ),
        "ko": (
            "다른 플레이어와 보상 교환",
            "토큰 맞바꾸기",
        ),
        "it": (
            "scambiare un gettone con un altro giocatore",
            "barattare ricompense",
        ),
        "zh-hant": (
            "和其他玩家交換獎勵",
            "跟對手換標記",
        ),
    },
    "okanagan.special.new_tiles": {
        "en": (
            "refresh the tiles",
            "discard the face up tiles and reveal new ones",
            "new tiles action",
        ),
        "fr": (
            "renouveler les tuiles",
            "défausser les tuiles visibles",
        ),
        "ko": (
            "타일 새로 깔기",
            "공개 타일 버리고 새로",
        ),
        "it": (
            "rinnovare le tessere",
            "scartare le tessere scoperte",
        ),
        "zh-hant": (
            "換新板塊",
            "棄掉翻開的板塊",
        ),
    },
    "okanagan.special.exchange_shape": {
        "en": (
            "exchange a reward for another shape same colour",
            "swap shape twice",
        ),
        "fr": ("échanger une récompense contre une autre forme de même couleur",),
        "ko": (
            "같은 색 다른 모양으로 교환",
            "모양 바꾸기 두 번",
        ),
        "it": ("cambiare una ricompensa con un'altra forma stesso colore",),
        "zh-hant": (
            "換成同顏色不同形狀",
            "換形狀兩次",
        ),
    },
    "okanagan.special.exchange_colour": {
        "en": (
            "exchange a reward for another colour same shape",
            "swap colour twice",
        ),
        "fr": ("échanger une récompense contre une autre couleur de même forme",),
        "ko": (
            "같은 모양 다른 색으로 교환",
            "색 바꾸기 두 번",
        ),
        "it": ("cambiare una ricompensa con un altro colore stessa forma",),
        "zh-hant": (
            "換成同形狀不同顏色",
            "換顏色兩次",
        ),
    },
    "okanagan.collect.pool": {
        "en": (
            "which tokens can be collected in a territory",
            "rewards printed on the territory",
            "kind missing from the supply",
        ),
        "fr": (
            "quels jetons récolter dans un territoire",
            "récompenses imprimées sur le territoire",
            "type absent de la réserve",
        ),
        "ko": (
            "영역에서 가져갈 수 있는 토큰",
            "영역에 그려진 보상",
            "공급처에 없는 종류",
        ),
        "it": (
            "quali gettoni si raccolgono nel territorio",
            "ricompense stampate sul territorio",
            "tipo mancante nella riserva",
        ),
        "zh-hant": (
            "區域可以拿哪些標記",
            "區域上畫的獎勵",
            "供應區沒有的種類",
        ),
    },
    "okanagan.collect.order": {
        "en": (
            "how many tokens do I take",
            "collect as many rewards as your influence",
            "who picks rewards first",
            "nothing left for the last player",
        ),
        "fr": (
            "combien de jetons je prends",
            "autant de récompenses que son influence",
            "qui choisit en premier",
            "plus rien pour le dernier",
        ),
        "ko": (
            "토큰 몇 개 가져가",
            "영향력만큼 보상",
            "누가 먼저 골라",
            "마지막 사람은 남은 게 없음",
        ),
        "it": (
            "quanti gettoni prendo",
            "tante ricompense quanta influenza",
            "chi sceglie per primo",
            "niente per l'ultimo",
        ),
        "zh-hant": (
            "我拿幾個標記",
            "影響力多少就拿多少",
            "誰先選",
            "最後的人沒得拿",
        ),
    },
    "okanagan.collect.all": {
        "en": (
            "can I take fewer rewards than my influence",
            "must I take all my tokens",
            "skip collecting",
            "refuse rewards",
        ),
        "fr": (
            "peut-on prendre moins de récompenses que son influence",
            "obligé de tout prendre",
            "refuser des jetons",
        ),
        "ko": (
            "영향력보다 적게 가져가도 돼",
            "꼭 다 가져가야 해",
            "보상 거절",
        ),
        "it": (
            "posso prendere meno ricompense della mia influenza",
            "devo prenderle tutte",
            "rifiutare gettoni",
        ),
        "zh-hant": (
            "可以少拿嗎",
            "一定要全部拿嗎",
            "可以不拿獎勵嗎",
        ),
    },
    "okanagan.supply.exhausted": {
        "en": (
            "a kind of reward token runs out",
            "no more tokens of a colour",
            "reward supply empty",
            "tokens all gone",
        ),
        "fr": (
            "plus de jetons d'un type",
            "une sorte de récompense épuisée",
            "la réserve de récompenses est vide",
        ),
        "ko": (
            "보상 토큰 종류가 다 떨어짐",
            "그 색 토큰이 없음",
            "공급처가 비었어",
        ),
        "it": (
            "finiti i gettoni di un tipo",
            "ricompense esaurite",
            "la riserva è vuota",
        ),
        "zh-hant": (
            "某種獎勵標記用完了",
            "供應區沒有了",
            "標記拿光了",
        ),
    },
    "okanagan.promo.volcano": {
        "en": (
            "volcano promo tile",
            "what happens when you play the volcano",
        ),
        "fr": (
            "tuile promo volcan",
            "que fait le volcan",
        ),
        "ko": (
            "화산 프로모 타일",
            "화산 놓으면",
        ),
        "it": (
            "tessera promo vulcano",
            "cosa succede col vulcano",
        ),
        "zh-hant": (
            "火山推廣板塊",
            "放火山會怎樣",
        ),
    },
    "okanagan.promo.beaver_dam": {
        "en": (
            "beaver dam promo tile",
            "what does the dam do",
        ),
        "fr": (
            "tuile promo barrage de castors",
            "que fait le barrage",
        ),
        "ko": (
            "비버 댐 프로모 타일",
            "댐 효과",
        ),
        "it": (
            "tessera promo diga dei castori",
            "cosa fa la diga",
        ),
        "zh-hant": (
            "河狸水壩推廣板塊",
            "水壩的效果",
        ),
    },
    "okanagan.round.end": {
        "en": (
            "end of round one",
            "when is the first round over",
            "second round buildings",
            "redraw objectives after round 1",
        ),
        "fr": (
            "fin de la manche un",
            "quand finit la première manche",
            "bâtiments de la deuxième manche",
        ),
        "ko": (
            "1라운드 끝",
            "첫 라운드 언제 끝나",
            "2라운드 건물",
        ),
        "it": (
            "fine del primo round",
            "quando termina il round 1",
            "edifici del secondo round",
        ),
        "zh-hant": (
            "第一回合結束",
            "第一輪什麼時候結束",
            "第二回合建築",
        ),
    },
    "okanagan.objectives.keep": {
        "en": (
            "how many objective cards to keep",
            "keep 3 of 5 goals",
            "are objectives secret",
            "hide my objectives",
        ),
        "fr": (
            "combien de cartes objectif garder",
            "garder 3 sur 5",
            "objectifs cachés",
        ),
        "ko": (
            "목표 카드 몇 장 남겨",
            "5장 중 3장",
            "목표 카드 비밀",
        ),
        "it": (
            "quante carte obiettivo tenere",
            "tenerne 3 su 5",
            "obiettivi segreti",
        ),
        "zh-hant": (
            "目標卡保留幾張",
            "5張留3張",
            "目標卡要保密嗎",
        ),
    },
    "okanagan.adjust": {
        "en": (
            "fix a mistake in tokens",
            "correct someone's tokens or nuggets",
            "we forgot to give a token",
        ),
        "fr": (
            "corriger une erreur de jetons",
            "on a oublié de donner un jeton",
        ),
        "ko": (
            "토큰 실수 수정",
            "토큰 주는 걸 깜빡함",
        ),
        "it": (
            "correggere un errore nei gettoni",
            "abbiamo dimenticato un gettone",
        ),
        "zh-hant": (
            "修正標記錯誤",
            "忘了給標記",
        ),
    },
    "okanagan.quick_count": {
        "en": (
            "count everything at the end",
            "we did not score each territory",
            "enter final holdings",
        ),
        "fr": (
            "tout compter à la fin",
            "on n'a pas compté chaque territoire",
        ),
        "ko": (
            "마지막에 한꺼번에 집계",
            "영역마다 기록 안 함",
        ),
        "it": (
            "contare tutto alla fine",
            "non abbiamo segnato ogni territorio",
        ),
        "zh-hant": (
            "最後一次清點",
            "沒有每塊計分",
        ),
    },
    "okanagan.score.explorer": {
        "en": (
            "explorer card scoring",
            "how many points for the explorer",
            "sets of four colours",
        ),
        "fr": (
            "décompte de la carte explorateur",
            "points de l'explorateur",
            "séries de quatre couleurs",
        ),
        "ko": (
            "탐험가 카드 점수 계산",
            "네 가지 색 세트",
        ),
        "it": (
            "punteggio della carta esploratore",
            "serie di quattro colori",
        ),
        "zh-hant": (
            "探險家卡計分",
            "四種顏色一組",
        ),
    },
    "okanagan.score.sets": {
        "en": (
            "how many sets do I have",
            "counting complete sets",
        ),
        "fr": (
            "combien de séries j'ai",
            "compter les séries complètes",
        ),
        "ko": (
            "세트 몇 개",
            "완성된 세트 세기",
        ),
        "it": (
            "quante serie ho",
            "contare le serie complete",
        ),
        "zh-hant": (
            "我有幾組",
            "算完整的組",
        ),
    },
    "okanagan.score.shared_tokens": {
        "en": (
            "can one token count for several objective cards",
            "does a token count twice",
            "same token for the explorer and an objective",
        ),
        "fr": (
            "un jeton compte pour plusieurs cartes objectif",
            "un jeton compte deux fois",
        ),
        "ko": (
            "토큰 하나가 여러 목표 카드에",
            "한 토큰을 두 번 세도 돼",
        ),
        "it": (
            "un gettone vale per più carte obiettivo",
            "un gettone conta due volte",
        ),
        "zh-hant": (
            "一個標記可以算多張目標卡",
            "同一個標記算兩次",
        ),
    },
    "okanagan.score.specific": {
        "en": (
            "specific reward objective card points",
            "3 points per token",
        ),
        "fr": (
            "carte objectif récompense précise",
            "3 points par jeton",
        ),
        "ko": (
            "특정 보상 목표 카드 점수",
            "토큰 하나당 3점",
        ),
        "it": (
            "carta obiettivo ricompensa specifica",
            "3 punti per gettone",
        ),
        "zh-hant": (
            "指定獎勵目標卡分數",
            "每個標記3分",
        ),
    },
    "okanagan.score.territory": {
        "en": (
            "territory colour objective card points",
            "5 points per set",
        ),
        "fr": (
            "carte objectif série de territoire",
            "5 points par série",
        ),
        "ko": (
            "영역 색 목표 카드 점수",
            "세트당 5점",
        ),
        "it": (
            "carta obiettivo serie di territorio",
            "5 punti per serie",
        ),
        "zh-hant": (
            "區域系列目標卡分數",
            "每組5分",
        ),
    },
    "okanagan.score.shape": {
        "en": (
            "shape objective card points",
            "7 points per set of one shape",
        ),
        "fr": (
            "carte objectif série de forme",
            "7 points par série",
        ),
        "ko": (
            "모양 목표 카드 점수",
            "세트당 7점",
        ),
        "it": (
            "carta obiettivo serie di forma",
            "7 punti per serie",
        ),
        "zh-hant": (
            "形狀系列目標卡分數",
            "每組7分",
        ),
    },
    "okanagan.nuggets.places": {
        "en": (
            "gold nugget points at the end",
            "most gold gets 10",
            "how are nuggets scored",
        ),
        "fr": (
            "points des pépites à la fin",
            "le plus de pépites marque 10",
            "décompte des pépites",
        ),
        "ko": (
            "금덩이 점수 계산",
            "금덩이 1등 10점",
            "금덩이 순위",
        ),
        "it": (
            "punti delle pepite alla fine",
            "chi ha più pepite prende 10",
            "punteggio pepite",
        ),
        "zh-hant": (
            "金塊終局分數",
            "金塊最多得10分",
            "金塊怎麼計分",
        ),
    },
    "okanagan.nuggets.ties": {
        "en": (
            "tie on gold nuggets",
            "two players with the same nuggets",
            "shared first place for nuggets",
            "who gets 5 after a tie",
        ),
        "fr": (
            "égalité sur les pépites",
            "deux joueurs avec autant de pépites",
            "premiers ex aequo",
        ),
        "ko": (
            "금덩이 동점",
            "금덩이 수가 같으면",
            "공동 1등 점수",
        ),
        "it": (
            "parità di pepite",
            "due giocatori con le stesse pepite",
            "primi a pari merito",
        ),
        "zh-hant": (
            "金塊平手",
            "金塊一樣多",
            "並列第一幾分",
        ),
    },
    "okanagan.nuggets.by_place": {
        "en": (
            "gold nuggets with 2 or 3 players",
            "nugget points in a small game",
            "does the last get 0 with three",
        ),
        "fr": (
            "pépites à 2 ou 3 joueurs",
            "points des pépites à trois",
        ),
        "ko": (
            "2인 3인 금덩이 점수",
            "세 명일 때 금덩이",
        ),
        "it": (
            "pepite con 2 o 3 giocatori",
            "punti pepite in tre",
        ),
        "zh-hant": (
            "2人3人的金塊分數",
            "三個人時金塊",
        ),
    },
    "okanagan.nuggets.fewest_zero": {
        "en": (
            "house rule fewest nuggets score zero",
            "option for the last in nuggets",
        ),
        "fr": ("variante le moins de pépites marque zéro",),
        "ko": ("금덩이 가장 적으면 0점 옵션",),
        "it": ("variante chi ha meno pepite prende zero",),
        "zh-hant": ("金塊最少得0分的選項",),
    },
    "okanagan.winner": {
        "en": (
            "who wins the game",
            "highest score wins",
        ),
        "fr": (
            "qui gagne la partie",
            "le plus de points gagne",
        ),
        "ko": (
            "누가 이겨",
            "점수 제일 높은 사람 승리",
        ),
        "it": (
            "chi vince la partita",
            "vince chi ha più punti",
        ),
        "zh-hant": (
            "誰贏",
            "分數最高獲勝",
        ),
    },
    "okanagan.winner.tokens": {
        "en": (
            "tie for the win",
            "same score at the end who wins",
            "tiebreaker for the winner",
            "draw on victory points",
        ),
        "fr": (
            "égalité pour la victoire",
            "même score à la fin qui gagne",
            "départage du vainqueur",
        ),
        "ko": (
            "최종 점수 동점 승자",
            "점수 같으면 누가 이겨",
            "승점 동점 타이브레이크",
        ),
        "it": (
            "pareggio per la vittoria",
            "stesso punteggio alla fine chi vince",
            "spareggio del vincitore",
        ),
        "zh-hant": (
            "終局同分誰贏",
            "分數平手的勝負",
            "平手怎麼決定勝利者",
        ),
    },
    "small_islands.total": {
        "en": (
            "how to score small islands",
            "prestige points discovery tokens ports",
        ),
        "fr": (
            "décompte de small islands",
            "points de prestige découvertes ports",
        ),
        "ko": (
            "스몰 아일랜드 점수 계산",
            "명성 점수 발견 토큰 항구",
        ),
        "it": (
            "come si conta small islands",
            "prestigio scoperte porti",
        ),
        "zh-hant": (
            "Small Islands 怎麼計分",
            "聲望 發現標記 港口",
        ),
    },
    "small_islands.ports": {
        "en": (
            "grey ship ports",
            "my ship is not on the board",
            "ports without a ship",
        ),
        "fr": (
            "ports du navire gris",
            "mon navire n'est pas posé",
        ),
        "ko": (
            "회색 배 항구",
            "내 배가 없으면",
        ),
        "it": (
            "porti della nave grigia",
            "la mia nave non è sul tavolo",
        ),
        "zh-hant": (
            "灰色船的港口",
            "我的船不在桌上",
        ),
    },
    "small_islands.tie.houses": {
        "en": (
            "small islands tie",
            "tie on points in small islands who wins",
            "tiebreaker houses",
        ),
        "fr": (
            "égalité à small islands",
            "égalité de points qui gagne",
            "départage aux maisons",
        ),
        "ko": (
            "스몰 아일랜드 동점",
            "점수 같으면 누가 이겨",
            "집 개수로 결정",
        ),
        "it": (
            "parità a small islands",
            "pareggio ai punti chi vince",
            "spareggio con le case",
        ),
        "zh-hant": (
            "Small Islands 平手",
            "同分誰贏",
            "比房屋數",
        ),
    },
    "small_islands.tie.ports": {
        "en": (
            "still tied after houses",
            "second tiebreaker ports",
        ),
        "fr": (
            "toujours égalité après les maisons",
            "deuxième départage ports",
        ),
        "ko": (
            "집도 같으면",
            "두 번째 타이브레이크 항구",
        ),
        "it": (
            "ancora pari dopo le case",
            "secondo spareggio porti",
        ),
        "zh-hant": (
            "房屋也一樣",
            "第二個比較港口",
        ),
    },
    "small_islands.tie.last_tile": {
        "en": (
            "who placed the last tile wins the tie",
            "final tiebreaker",
        ),
        "fr": (
            "dernière tuile posée départage",
            "dernier départage",
        ),
        "ko": (
            "마지막 타일 놓은 사람",
            "마지막 타이브레이크",
        ),
        "it": (
            "chi ha messo l'ultima tessera",
            "ultimo spareggio",
        ),
        "zh-hant": (
            "最後放板塊的人贏",
            "最後的比較",
        ),
    },
    "small_islands.solo": {
        "en": (
            "solo game against Alexis",
            "playing alone small islands",
        ),
        "fr": (
            "partie solo contre Alexis",
            "jouer seul",
        ),
        "ko": (
            "알렉시스와 솔로 게임",
            "혼자 하기",
        ),
        "it": (
            "partita in solitario contro Alexis",
            "giocare da soli",
        ),
        "zh-hant": (
            "單人對 Alexis",
            "一個人玩",
        ),
    },
    "cooper_island.logbooks": {
        "en": (
            "logbook points",
            "how much is a logbook worth",
        ),
        "fr": ("points des journaux de bord",),
        "ko": ("항해 일지 점수",),
        "it": ("punti dei diari di bordo",),
        "zh-hant": ("航海日誌分數",),
    },
    "cooper_island.sailing": {
        "en": (
            "ship sailing points past the logbook",
            "spaces sailed",
        ),
        "fr": ("points de navigation des navires",),
        "ko": ("배 항해 칸 점수",),
        "it": ("punti di navigazione delle navi",),
        "zh-hant": ("船隻航行格數分數",),
    },
    "cooper_island.royal_orders": {
        "en": (
            "royal order cards points",
            "workers on royal orders",
            "how many royal orders with 3 players",
        ),
        "fr": (
            "cartes ordre royal",
            "ouvriers sur les ordres royaux",
        ),
        "ko": (
            "왕실 명령 카드 점수",
            "일꾼 배치",
        ),
        "it": (
            "carte ordine reale",
            "lavoratori sugli ordini reali",
        ),
        "zh-hant": (
            "皇家指令卡分數",
            "工人放在指令卡",
        ),
    },
    "cooper_island.buildings": {
        "en": ("building cards end game points",),
        "fr": ("points des cartes bâtiment en fin de partie",),
        "ko": ("건물 카드 게임 종료 점수",),
        "it": ("punti delle carte edificio a fine partita",),
        "zh-hant": ("建築卡終局分數",),
    },
    "cooper_island.leftovers": {
        "en": (
            "leftover coins and resources points",
            "what are remaining resources worth",
        ),
        "fr": (
            "pièces et ressources restantes",
            "que valent les restes",
        ),
        "ko": ("남은 동전 자원 점수",),
        "it": (
            "monete e risorse avanzate",
            "quanto valgono gli avanzi",
        ),
        "zh-hant": ("剩下的硬幣資源算分",),
    },
    "cooper_island.anchors": {
        "en": (
            "anchor tokens lose points",
            "minus for anchors left",
        ),
        "fr": (
            "ancres qui restent coûtent des points",
            "malus des ancres",
        ),
        "ko": ("남은 닻 토큰 감점",),
        "it": ("ancore rimaste tolgono punti",),
        "zh-hant": ("剩下的船錨扣分",),
    },
    "cooper_island.tie": {
        "en": (
            "cooper island tie",
            "tiebreaker empty spaces on the island",
        ),
        "fr": (
            "égalité à cooper island",
            "départage cases vides",
        ),
        "ko": (
            "쿠퍼 아일랜드 동점",
            "섬의 빈칸",
        ),
        "it": (
            "parità a cooper island",
            "spareggio spazi vuoti",
        ),
        "zh-hant": (
            "Cooper Island 平手",
            "島上空格",
        ),
    },
}
"""Per rule id, per language: questions and words players use about that rule, indexed with it."""


def asked_as(rule_id: str, language: str) -> str:
    """The players' phrasings of a rule in ``language`` (empty when there are none)."""
    return "; ".join(ASKED_AS.get(rule_id, {}).get(language, ()))
