"""A fixed action encoding: every decision as a short sequence of atomic actions.

A publish is chosen card by card, so a position can offer tens of thousands of
legal moves. Learning code wants one fixed, small action space with a mask of
the legal actions. :class:`ActionSpace` fixes that space for a catalogue, and
:class:`MoveBuilder` turns a sequence of atomic actions into one game move, with
the mask of the legal atomic actions at every step.

**Layout.** With ``k`` publishable Novels in the catalogue (10 in the default
one), there are ``347 + k`` atomic actions (357 by default); ``c`` is a card's
index in :data:`~pastiche_core.data.cards.DECK` (0 for ``MYT1`` to 48 for ``MAG13``):

==================  ==================================================================
action              meaning
==================  ==================================================================
``0``               draw: Write ① (R11)
``1``               take: Write ② (R11)
``2``               pass (R11)
``3``               confirm: the cards of the publish being built are complete
``4 + c``           discard hand card ``c`` at setup; the other cards are kept (R10)
``53 + c``          keep drawn card ``c`` (R11)
``102 + c``         put hand card ``c`` under the End Flag (R12)
``151 + c``         read card ``c`` from the Published novel it lies in (R11)
``200 + c``         play hand card ``c`` in the publish being built (R4)
``249 + c``         cite the Masterpiece whose one card is ``c`` (R4, R6)
``298 + c``         give hand card ``c`` as the next gift (R5)
``347 + i``         start a publish of the catalogue's ``i``-th publishable Novel
==================  ==================================================================

**Sequences.** Draw, take, pass, choose, flag and read are one action each. A
setup keep is one discard action per card discarded, in the order they are
discarded: a seat that discards two cards puts the second on top (R15).
A publish is: the Novel; then its cards in the *canonical order* — by rank,
hand cards before Masterpieces within a rank, then by card — each a play or a
cite; then confirm; then one gift action per card owed, to the owners in
ascending seat order (the recipient is implicit: the lowest seat still owed)
and in ascending card order per owner.

**Guarantees** (checked by the property tests): the mask is computed from the
player's view only, without listing publishes; every action the mask allows
leads on to at least one complete move (no dead ends); every sequence of legal
actions ends in exactly one legal move; and every legal move — every publish
card by card, every gift choice included — is the end of exactly one sequence,
so the sequences and the legal moves correspond one to one. The mask of a
publish in progress is exact because a partial choice is checked against the
Novel's rank multisets (R8) with a closed-form test of what the unused hand
cards and Masterpieces can still supply (see :meth:`MoveBuilder.legal_actions`).

>>> from pastiche_core import Game
>>> game = Game(players=3, seed=7)
>>> space = ActionSpace(game.catalogue)
>>> len(space), space.describe(space.DRAW), space.describe(space.play(Card.parse("SCI7")))
(357, 'draw', 'play SCI7')
>>> builder = MoveBuilder(space, game.view(game.to_move))
>>> [space.describe(a) for a in builder.legal_actions()]
['discard MYT1', 'discard HOR7', 'discard HOR8', 'discard FAN10']
>>> builder.push(space.discard(Card.parse("FAN10")))
Move.parse('keep MYT1 HOR7 HOR8')
"""

from __future__ import annotations

import bisect
from typing import TYPE_CHECKING, SupportsIndex

from ..data.cards import DECK, Card
from ..data.catalogue import NovelSpec
from ..data.errors import IllegalMoveError, InvalidArgumentError
from ..engine.feasibility import (
    kernel_plan,
    usable_flags,
)
from ..engine.movegen import payable_groups
from ..engine.moves import (
    Choose,
    Draw,
    Gift,
    Keep,
    Move,
    NovelRef,
    Pass,
    Publish,
    Read,
    TakeDiscard,
    TakeFlag,
)
from ..engine.rules import Phase, turn_actions
from .encoding_masks import (
    Partial,
    Table,
    cards_mask,
    feasible_combos,
    publish_start,
    rank_combos,
    readable,
    start_actions,
    table_of,
)
from .encoding_space import (
    CITE,
    CITE_BASE,
    NOVEL_BASE,
    PLAY,
    PLAY_BASE,
    READ_BASE,
    ActionSpace,
    Stage,
    action_index,
    as_index,
    illegal_action,
)

if TYPE_CHECKING:
    from ..engine.view import PlayerView

__all__ = ["ActionSpace", "MoveBuilder", "Stage", "action_index", "illegal_action"]

_RANK = tuple(card.rank for card in DECK)


class MoveBuilder:
    """The decision of the player to move, built one atomic action at a time.

    Made from the view of the player to move (``game.view(game.to_move)``), so
    the mask never depends on what the player cannot see. :meth:`legal_actions`
    lists the legal atomic actions; :meth:`push` plays one and returns the
    finished :class:`~pastiche_core.engine.moves.Move` (for the caller to apply to the
    game) or ``None`` while the decision goes on. Use a new builder for each
    new position.

    >>> from pastiche_core import Game, parse_cards
    >>> game = Game(players=3, seed=7)
    >>> game.apply("keep MYT1 HOR7 HOR8"); game.apply("draw")
    >>> space = ActionSpace(game.catalogue)
    >>> builder = MoveBuilder(space, game.view(0))
    >>> [space.describe(a) for a in builder.legal_actions()]
    ['choose SCI5', 'choose FAN11']
    >>> builder.push(space.choose(Card.parse("FAN11")))
    Move.parse('choose FAN11')
    """

    __slots__ = (
        "_combos",
        "_discards",
        "_gifts",
        "_legal",
        "_legal_set",
        "_mps",
        "_novel",
        "_novel_mask",
        "_owed",
        "_partial",
        "_stage",
        "_table",
        "_usable",
        "space",
        "view",
    )

    def __init__(self, space: ActionSpace, view: PlayerView) -> None:
        if view.phase is not Phase.OVER and view.player != view.to_move:
            raise InvalidArgumentError(
                f"a move builder needs the view of the player to move ({view.to_move}), "
                f"got the view of player {view.player}"
            )
        self.space = space
        """The action layout the actions are read in."""
        self.view = view
        """The view of the player to move, whose decision is being built."""
        self._stage = Stage.START
        self._table: Table | None = None
        self._mps: dict[int, tuple[int, str]] | None = None
        self._usable: bytes | None = None
        self._novel_mask: list[int] | None = None
        self._novel: NovelSpec | None = None
        self._combos: list[bytes] = []  # the Novel's rank multisets still open, 14 bytes each
        self._partial = Partial()
        self._discards: list[int] = []
        self._owed: list[int] = []  # the owner of each gift owed, in the order asked (R5)
        self._gifts: list[tuple[int, int]] = []
        self._legal: list[int] | None = None
        self._legal_set: frozenset[int] = frozenset()

    # ------------------------------------------------------------------
    # What has been chosen (the partial-action state)
    # ------------------------------------------------------------------
    @property
    def stage(self) -> Stage:
        """How far the decision has come."""
        return self._stage

    @property
    def novel(self) -> str | None:
        """The Novel of the publish being built, if any."""
        return None if self._novel is None else self._novel.id

    @property
    def played(self) -> tuple[Card, ...]:
        """Hand cards chosen to play so far."""
        return tuple(DECK[index] for index in self._partial.played)

    @property
    def cited(self) -> tuple[Card, ...]:
        """Cards of the Masterpieces chosen to cite so far."""
        return tuple(DECK[index] for index in self._partial.cited)

    @property
    def gifts(self) -> tuple[Gift, ...]:
        """Gifts chosen so far."""
        return tuple(Gift(owner, DECK[index]) for owner, index in self._gifts)

    @property
    def discards(self) -> tuple[Card, ...]:
        """Setup discards chosen so far."""
        return tuple(DECK[index] for index in self._discards)

    @property
    def owed(self) -> tuple[tuple[int, int], ...]:
        """Gifts still to choose, as (owner, count) in the order they are asked for."""
        left: list[tuple[int, int]] = []
        for owner in self._owed[len(self._gifts) :]:
            if left and left[-1][0] == owner:
                left[-1] = (owner, left[-1][1] + 1)
            else:
                left.append((owner, 1))
        return tuple(left)

    def progress(self) -> tuple[Stage, list[int], list[int], list[int], list[int]]:
        """The stage and the card indexes chosen so far: played, cited, given, discarded.

        The lists are the builder's own (read them, do not change them).

        >>> from pastiche_core import Game
        >>> builder = MoveBuilder(ActionSpace(), Game(players=3, seed=7).view(2))
        >>> builder.progress()
        (<Stage.START: 0>, [], [], [], [])
        """
        partial = self._partial
        gifts = [index for _, index in self._gifts]
        return self._stage, partial.played, partial.cited, gifts, self._discards

    def __repr__(self) -> str:
        parts = [f"player {self.view.player}", self._stage.name.lower()]
        if self._novel is not None:
            parts.append(self._novel.id)
        if self._partial.played or self._partial.cited:
            chosen = " ".join(
                f"{'play' if kind == PLAY else 'cite'} {DECK[index]}"
                for kind, index in self._components()
            )
            parts.append(chosen)
        if self._discards:
            parts.append("discard " + " ".join(str(DECK[i]) for i in self._discards))
        if self._gifts:
            parts.append("gift " + " ".join(f"{o}:{DECK[i]}" for o, i in self._gifts))
        return f"<MoveBuilder {', '.join(parts)}>"

    def _components(self) -> list[tuple[int, int]]:
        partial = self._partial
        keyed = [(_RANK[i], PLAY, i) for i in partial.played]
        keyed += [(_RANK[i], CITE, i) for i in partial.cited]
        keyed.sort()
        return [(kind, index) for _, kind, index in keyed]

    def copy(self) -> MoveBuilder:
        """An independent builder at the same point of the same decision (for search).

        >>> from pastiche_core import Game
        >>> game = Game(players=5, seed=3)
        >>> game.apply(game.legal_moves[0]); game.apply(game.legal_moves[0])
        >>> builder = MoveBuilder(ActionSpace(), game.view(4))  # seat 4 discards two cards
        >>> twin = builder.copy(); twin.push(twin.legal_actions()[0]) is None
        True
        >>> builder.stage, twin.stage
        (<Stage.START: 0>, <Stage.DISCARDING: 1>)
        """
        twin = MoveBuilder(self.space, self.view)
        twin._stage = self._stage
        twin._table = self._table  # read-only once built
        twin._mps = self._mps
        twin._usable = self._usable
        twin._novel_mask = self._novel_mask
        twin._novel = self._novel
        twin._combos = self._combos  # replaced, never changed in place
        partial, copied = self._partial, twin._partial
        copied.chosen = partial.chosen.copy()
        copied.played = partial.played.copy()
        copied.cited = partial.cited.copy()
        copied.gifts_owed = partial.gifts_owed
        copied.last = partial.last
        twin._discards = self._discards.copy()
        twin._owed = self._owed.copy()
        twin._gifts = self._gifts.copy()
        twin._legal = self._legal
        twin._legal_set = self._legal_set
        return twin

    # ------------------------------------------------------------------
    # The mask
    # ------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        """The legal atomic actions now, ascending; empty only when the game is over.

        In a publish, a play or cite is legal when some rank multiset of the
        Novel (R8) still fits the cards chosen so far and can be completed from
        the unused hand cards and Masterpieces after it in the canonical order,
        paying the gifts from the hand (R4, R5) — a closed-form test per rank
        multiset, so no publish is ever listed.

        >>> from pastiche_core import Game
        >>> builder = MoveBuilder(ActionSpace(), Game(players=3, seed=7).view(2))
        >>> len(builder.legal_actions())
        4
        """
        return list(self._actions())

    def _actions(self) -> list[int]:
        """The legal actions, computed once per step (the caller must not change the list)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
            self._legal_set = frozenset(legal)
        return legal

    def _compute_legal(self) -> list[int]:
        view = self.view
        phase = view.phase
        stage = self._stage
        if phase is Phase.ACTION:
            if stage is Stage.START:
                return self._action_mask()
            if stage is Stage.CARDS:
                return self._cards_mask()
            return self._gifts_mask()
        if phase is Phase.KEEP:
            return self._keep_mask()
        if phase is Phase.CHOOSE:
            pending = view.pending
            assert pending is not None  # the view of the chooser shows both cards
            base = self.space.choose(DECK[0])
            return sorted(base + card.index for card in pending)
        if phase is Phase.FLAG:
            base = self.space.flag(DECK[0])
            return [base + card.index for card in view.hand]
        return []

    def mask(self) -> bytearray:
        """The legal actions as a byte per action (1 legal, 0 not), :attr:`ActionSpace.size` long.

        >>> from pastiche_core import Game
        >>> mask = MoveBuilder(ActionSpace(), Game(players=3, seed=7).view(2)).mask()
        >>> len(mask), sum(mask)
        (357, 4)
        """
        out = bytearray(self.space.size)
        for action in self._actions():
            out[action] = 1
        return out

    def _table_now(self) -> Table:
        if self._table is None:
            view = self.view
            self._table = table_of(view.card_table, view.player)
        return self._table

    def _usable_flags(self) -> bytes:
        """The player's usable flags (R6), as the kernels read them."""
        usable = self._usable
        if usable is None:
            view = self.view
            held = {novel.novel for novel in view.tables[view.player]}
            usable = self._usable = usable_flags(view.catalogue, dict(view.supply), held)
        return usable

    def _action_mask(self) -> list[int]:
        view = self.view
        plan = kernel_plan(view.catalogue)
        if plan is None:  # a catalogue without a plan: the reads, then the Novels
            started = [READ_BASE + index for index in readable(view.card_table)]
            started += [NOVEL_BASE + index for index in self._publishable()]
        else:
            started = start_actions(
                view.card_table, view.player, self._usable_flags(), plan, READ_BASE, NOVEL_BASE
            )
        reads = bisect.bisect_left(started, NOVEL_BASE)
        draw, take, may_pass = turn_actions(view.deck_size, len(view.discard), reads)
        writes = ((ActionSpace.DRAW, draw), (ActionSpace.TAKE, take), (ActionSpace.PASS, may_pass))
        return [action for action, legal in writes if legal] + started

    def _source(self, card: Card) -> NovelRef:
        """The Published novel ``card`` lies in (a legal read's, R11)."""
        for owner, table in enumerate(self.view.tables):
            for novel in table:
                if card in novel.cards:
                    return NovelRef(owner, novel.novel)
        raise AssertionError(f"{card} lies in no novel")  # the mask offered it: unreachable

    def _masterpieces(self) -> dict[int, tuple[int, str]]:
        """Every Masterpiece's card with its (owner, Novel id) (R4, R6)."""
        mps = self._mps
        if mps is None:
            mps = self._mps = {
                novel.cards[0].index: (owner, novel.novel)
                for owner, table in enumerate(self.view.tables)
                for novel in table
                if novel.masterpiece
            }
        return mps

    def _publishable(self) -> list[int]:
        """Indexes (in :attr:`ActionSpace.novels`) of the Novels with a legal publish."""
        if self._novel_mask is not None:
            return self._novel_mask
        found: list[int] = []
        view = self.view
        if view.hand:
            usable = self._usable_flags()
            plan = kernel_plan(view.catalogue)
            if plan is not None:
                payable = payable_groups(self._table_now(), usable, plan, True)
                found = [index for index, _, _ in payable]
            else:
                table = self._table_now()
                own_total = sum(table.own)
                for index, spec in enumerate(self.space.novel_specs):
                    pattern = spec.pattern
                    if pattern is None or not usable[index]:
                        continue  # R6
                    size = pattern.size
                    if size is not None and size > table.limit + own_total:
                        continue  # R5: every card but own Masterpieces costs a hand card
                    if rank_combos(spec, table, first=True):
                        found.append(index)
        self._novel_mask = found
        return found

    def _cards_mask(self) -> list[int]:
        """Plays, cites and confirm that keep some rank multiset of the Novel completable
        (the ``cards_mask`` kernel)."""
        partial = self._partial
        view = self.view
        return cards_mask(
            view.card_table,
            view.player,
            self._combos,
            partial.chosen,
            *partial.last,
            len(partial.played),
            partial.gifts_owed,
            ActionSpace.CONFIRM,
            PLAY_BASE,
            CITE_BASE,
        )

    def _gifts_mask(self) -> list[int]:
        available, owner_left, later, previous = self._gift_state()
        base = self.space.gift(DECK[0])
        actions = []
        for position, index in enumerate(available):
            if index <= previous:
                continue
            above = len(available) - position - 1
            if above >= owner_left - 1 and len(available) - 1 >= owner_left - 1 + later:
                actions.append(base + index)
        return actions

    def _gift_state(self) -> tuple[list[int], int, int, int]:
        """(cards that may still be given, gifts left for the current owner, gifts
        for later owners, the card given last to the current owner or -1)."""
        used = set(self._partial.played)
        used.update(index for _, index in self._gifts)
        available = [card.index for card in self.view.hand if card.index not in used]
        queue, given = self._owed, len(self._gifts)
        owner = queue[given]
        owner_left = 1
        while given + owner_left < len(queue) and queue[given + owner_left] == owner:
            owner_left += 1
        later = len(queue) - given - owner_left
        previous = -1
        if self._gifts and self._gifts[-1][0] == owner:
            previous = self._gifts[-1][1]
        return available, owner_left, later, previous

    def _keep_mask(self) -> list[int]:
        # R15: the discards come in the order they are discarded, any card first.
        chosen = self._discards
        base = self.space.discard(DECK[0])
        return sorted(base + card.index for card in self.view.hand if card.index not in chosen)

    # ------------------------------------------------------------------
    # Playing actions
    # ------------------------------------------------------------------
    def is_legal(self, action: SupportsIndex) -> bool:
        """Whether ``action`` is legal now.

        >>> from pastiche_core import Game
        >>> MoveBuilder(ActionSpace(), Game(players=3, seed=7).view(2)).is_legal(0)
        False
        """
        try:
            index = as_index(action, self.space.size)
        except (TypeError, ValueError):
            return False
        self._actions()
        return index in self._legal_set

    def push(self, action: SupportsIndex) -> Move | None:
        """Play one atomic action; return the finished move, or ``None`` if more are needed.

        An illegal action raises :class:`~pastiche_core.data.errors.IllegalMoveError`
        and changes nothing. The move returned is legal in the game the view was
        taken from; apply it there, then build the next decision with a new builder.

        >>> from pastiche_core import Game
        >>> builder = MoveBuilder(ActionSpace(), Game(players=3, seed=7).view(2))
        >>> builder.push(ActionSpace.DRAW)
        Traceback (most recent call last):
        ...
        pastiche_core.data.errors.IllegalMoveError: atomic action 'draw' is not legal now (player 2, keep, start)
        """
        space = self.space
        try:
            index = as_index(action, space.size)
        except (TypeError, ValueError):
            index = -1
        self._actions()
        if index not in self._legal_set:
            raise IllegalMoveError(
                illegal_action(space, action, self.view.player, self.view.phase, self._stage)
            )
        kind, argument = space.decode_index(index)
        view = self.view
        self._legal = None
        if kind == "draw":
            return Draw()
        if kind == "take":
            return TakeDiscard()
        if kind == "pass":
            return Pass()
        if kind == "choose":
            assert isinstance(argument, Card)
            return Choose(argument)
        if kind == "flag":
            assert isinstance(argument, Card)
            return TakeFlag(argument)
        if kind == "read":
            assert isinstance(argument, Card)
            return Read(self._source(argument), argument)
        if kind == "discard":
            assert isinstance(argument, Card)
            self._discards.append(argument.index)
            self._stage = Stage.DISCARDING
            if len(view.hand) - len(self._discards) > view.rules.keep_size:
                return None
            gone = self._discards
            kept = tuple(card for card in view.hand if card.index not in gone)
            if len(gone) < 2:
                return Keep(kept)  # R15: one discard has no order to choose
            return Keep(kept, tuple(DECK[index] for index in gone))
        if kind == "novel":
            assert isinstance(argument, str)
            self._start_publish(space.novel_specs[space.novels.index(argument)])
            return None
        if kind in ("play", "cite"):
            assert isinstance(argument, Card)
            self._choose_card(argument.index, PLAY if kind == "play" else CITE)
            return None
        if kind == "confirm":
            return self._confirm()
        assert kind == "gift"
        assert isinstance(argument, Card)
        given = len(self._gifts)
        self._gifts.append((self._owed[given], argument.index))
        if given + 1 < len(self._owed):
            return None
        return self._publish()

    def _start_publish(self, spec: NovelSpec) -> None:
        assert spec.pattern is not None
        self._novel = spec
        self._stage = Stage.CARDS
        view = self.view
        plan = kernel_plan(view.catalogue)
        if plan is None:
            self._combos = rank_combos(spec, self._table_now(), first=False)
            return
        index = self.space.novel_specs.index(spec)
        only = bytearray(len(self.space.novel_specs))
        only[index] = 1
        self._combos = publish_start(view.card_table, view.player, bytes(only), plan)

    def _choose_card(self, index: int, kind: int) -> None:
        partial = self._partial
        rank = _RANK[index]
        partial.chosen[rank] += 1
        partial.last = (rank, kind, index)
        if kind == PLAY:
            partial.played.append(index)
        else:
            partial.cited.append(index)
            if self._masterpieces()[index][0] != self.view.player:
                partial.gifts_owed += 1
        view = self.view
        self._combos = feasible_combos(
            view.card_table,
            view.player,
            self._combos,
            partial.chosen,
            *partial.last,
            len(partial.played),
            partial.gifts_owed,
        )

    def _confirm(self) -> Move | None:
        mps = self._masterpieces()
        owed: dict[int, int] = {}
        for index in self._partial.cited:
            owner = mps[index][0]
            if owner != self.view.player:
                owed[owner] = owed.get(owner, 0) + 1
        self._owed = [owner for owner, count in sorted(owed.items()) for _ in range(count)]
        if self._owed:
            self._stage = Stage.GIFTS
            return None
        return self._publish()

    def _publish(self) -> Publish:
        mps = self._masterpieces()
        assert self._novel is not None
        # Sorted here as Publish stores them (cards by index, references and gifts by
        # owner first), so no comparison of move objects is needed.
        return Publish.canonical(
            self._novel.id,
            tuple([DECK[index] for index in sorted(self._partial.played)]),
            tuple([NovelRef(*where) for where in sorted([mps[i] for i in self._partial.cited])]),
            tuple([Gift(owner, DECK[index]) for owner, index in sorted(self._gifts)]),
        )

    # ------------------------------------------------------------------
    # From moves to actions
    # ------------------------------------------------------------------
    def actions_for(self, move: Move | str) -> list[int]:
        """The one sequence of atomic actions that ends in ``move`` (from the start).

        Raises :class:`~pastiche_core.data.errors.IllegalMoveError` if ``move`` is not
        legal in this position, or if this builder has already started a decision.

        >>> from pastiche_core import Game
        >>> game = Game(players=3, seed=7)
        >>> space = ActionSpace(game.catalogue)
        >>> [space.describe(a) for a in MoveBuilder(space, game.view(2)).actions_for(
        ...     "keep MYT1 HOR7 HOR8")]
        ['discard FAN10']
        """
        if self._stage is not Stage.START:
            raise IllegalMoveError("actions_for needs a builder at the start of a decision")
        if isinstance(move, str):
            move = Move.parse(move)
        if isinstance(move, Keep):
            move = self._ordered_keep(move)
        actions = self._sequence(move)
        twin = MoveBuilder(self.space, self.view)
        twin._table = self._table
        twin._novel_mask = self._novel_mask
        result: Move | None = None
        for _step, action in enumerate(actions):
            if result is not None or not twin.is_legal(action):
                result = None
                break
            result = twin.push(action)
        if result is None or result != move:
            raise IllegalMoveError(f"'{move}' is not a legal move of player {self.view.player} now")
        return actions

    def _ordered_keep(self, move: Keep) -> Keep:
        """The keep as the game records it (R15): a discard order only for two cards,
        the card order when none is given."""
        kept = set(move.cards)
        dropped = tuple(card for card in self.view.hand if card not in kept)
        if len(dropped) < 2:
            return Keep(move.cards) if move.discard else move
        return move if move.discard else Keep(move.cards, dropped)

    def _sequence(self, move: Move) -> list[int]:
        space = self.space
        if isinstance(move, Draw):
            return [space.DRAW]
        if isinstance(move, TakeDiscard):
            return [space.TAKE]
        if isinstance(move, Pass):
            return [space.PASS]
        if isinstance(move, Choose):
            return [space.choose(move.card)]
        if isinstance(move, TakeFlag):
            return [space.flag(move.card)]
        if isinstance(move, Read):
            return [space.read(move.card)]
        if isinstance(move, Keep):
            if move.discard:
                return [space.discard(card) for card in move.discard]
            kept = set(move.cards)
            return [space.discard(card) for card in self.view.hand if card not in kept]
        if isinstance(move, Publish):
            if move.novel not in space.novels:
                return []
            by_ref = {NovelRef(*where): index for index, where in self._masterpieces().items()}
            keyed = [(card.rank, PLAY, card.index) for card in move.played]
            for ref in move.cited:
                if ref not in by_ref:
                    return []
                index = by_ref[ref]
                keyed.append((_RANK[index], CITE, index))
            keyed.sort()
            actions = [space.novel(move.novel)]
            for _, kind, index in keyed:
                card = DECK[index]
                actions.append(space.play(card) if kind == PLAY else space.cite(card))
            actions.append(space.CONFIRM)
            actions.extend(space.gift(gift.card) for gift in sorted(move.gifts, key=_gift_order))
            return actions
        return []


def _gift_order(gift: Gift) -> tuple[int, int]:
    return (gift.to, gift.card.index)
