"""Forms: each checks its input and says what is wrong in a sentence; rules questions go to ``rules``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.models import User
from django.core.files.uploadedfile import UploadedFile
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from rules import (
    NUGGET_SUPPLY_RANGE,
    REWARD_SUPPLY_RANGE,
    NuggetLadder,
    Options,
    RecordError,
    RulesError,
    name_key,
    name_problem,
    normal_text,
    parse_players,
    read_json,
    score_document,
    text_problem,
)
from rules.components import MAX_PLAYERS
from scoring.confusables import (
    first_look_alike,
    looks_like_player_text,
    mixed_name_text,
    mixes_scripts,
    new_players_problem,
)
from scoring.creation import Profiles
from scoring.models import CODE_ALPHABET, CODE_LENGTH, GROUP_NAME_LENGTH, NAME_LENGTH, Group, Profile, new_token
from scoring.wording import NUGGET_LADDERS, error_text, say

MAX_RECORD_BYTES = 1_000_000
MAX_BACKUP_BYTES = 5_000_000
MAX_PLAYS_BYTES = 5_000_000

USERNAME_TAKEN = _("This username is taken (capital letters do not make a new name): choose another.")
SEAT_LABELS = (_("First player"), _("Second player"), _("Third player"), _("Fourth player"))


class SignupForm(forms.ModelForm[User]):
    """A name and one password (typed once, shown on request: a phone at a table, not a bank)."""

    password = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )

    class Meta:
        model = User
        fields = ("username",)

    def clean_username(self) -> str:
        """A username not taken in any case: with "Ann" there, "ann" and "ANN" are taken too."""
        username = User.normalize_username(str(self.cleaned_data["username"]))  # NFKC, as it will be stored
        if username_taken(username):
            raise forms.ValidationError(USERNAME_TAKEN, code="unique")
        if mixes_scripts(username):
            raise forms.ValidationError(mixed_name_text())
        # Every username is compared: two plain ASCII ones may look alike too ("Al" and "A1").
        if first_look_alike(username, User.objects.values_list("username", flat=True).iterator()) is not None:
            raise forms.ValidationError(
                _("This username looks like one that is taken (letters that look alike): choose another."),
                code="unique",
            )
        return username

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        password = data.get("password")
        if password:
            try:
                password_validation.validate_password(password, User(username=data.get("username", "")))
            except forms.ValidationError as error:
                self.add_error("password", error)
        return data

    def save(self, commit: bool = True) -> User:
        user = super().save(commit=False)
        user.set_password(self.cleaned_data["password"])
        if commit:
            user.save()
        return user


def checked_text(value: object, limit: int) -> str:
    """What a person typed, in normal form, or a ``ValidationError`` saying why it cannot be stored."""
    text = normal_text(str(value or ""))
    problem = text_problem(text)
    if problem is not None:
        raise forms.ValidationError(_("This text %(problem)s."), params={"problem": say(problem)})
    if len(text) > limit:
        raise forms.ValidationError(_("This text is longer than %(limit)d characters."), params={"limit": limit})
    return text


def checked_name(value: object, group: Group | None = None, exclude: int | None = None) -> str:
    """A player's name as typed, in normal form; refused if it cannot be a name, or, with ``group``, if it
    would be the same player as another of the group's players (other than profile ``exclude``)."""
    name = normal_text(str(value or ""))
    problem = name_problem(name)
    if problem is not None:
        raise forms.ValidationError(_("This name %(problem)s."), params={"problem": say(problem)})
    if mixes_scripts(name):
        raise forms.ValidationError(mixed_name_text())
    if group is None:
        return name
    same = Profiles(group).find(name)
    if same is not None and same.pk != exclude:
        raise forms.ValidationError(_("%(name)s is already a player of this group."), params={"name": same.name})
    others = (other for pk, other in group.profiles.values_list("pk", "name") if pk != exclude)
    other = first_look_alike(name, others)
    if other is not None:
        raise forms.ValidationError(looks_like_player_text(name, other))
    return name


def username_taken(username: str) -> bool:
    """Whether an account has this username in any case, in any script (``Straße`` and ``STRASSE``).

    Databases fold case in ASCII only (SQLite) or by their own rules, so the names with other letters
    are compared here, case-folded: they are few.
    """
    key = username.casefold()
    if User.objects.filter(Q(username__iexact=username) | Q(username__iexact=key)).exists():
        return True
    others = User.objects.filter(username__regex=r"[^\x00-\x7f]").values_list("username", flat=True)
    return any(other.casefold() == key for other in others)


class GroupForm(forms.ModelForm[Group]):
    class Meta:
        model = Group
        fields = ("name",)
        labels = {"name": _("Group name")}

    def clean_name(self) -> str:
        return checked_text(self.cleaned_data["name"], GROUP_NAME_LENGTH)


class ProfileForm(forms.ModelForm[Profile]):
    """A player's name in a group, and the member account it belongs to."""

    class Meta:
        model = Profile
        fields = ("name", "user")
        labels = {"name": _("Player name"), "user": _("Member account")}

    def __init__(self, *args: Any, group: Group, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.group = group
        self.instance.group = group
        self.fields["user"].queryset = group.members.all()  # type: ignore[attr-defined]
        self.fields["user"].required = False
        self.fields["name"].widget.attrs["autocomplete"] = "off"

    def clean_name(self) -> str:
        return checked_name(self.cleaned_data["name"], self.group, exclude=self.instance.pk)


class NewGameForm(forms.Form):
    """2 to 4 players in seat order from the first player, and the options."""

    seat_1 = forms.CharField(label=SEAT_LABELS[0], max_length=NAME_LENGTH)
    seat_2 = forms.CharField(label=SEAT_LABELS[1], max_length=NAME_LENGTH)
    seat_3 = forms.CharField(label=SEAT_LABELS[2], max_length=NAME_LENGTH, required=False)
    seat_4 = forms.CharField(label=SEAT_LABELS[3], max_length=NAME_LENGTH, required=False)
    nugget_ladder = forms.ChoiceField(
        label=_("Gold nuggets"),
        choices=[(ladder.value, word) for ladder, word in NUGGET_LADDERS.items()],
        initial=NuggetLadder.BY_PLACE.value,
        widget=forms.RadioSelect,
    )
    promos = forms.BooleanField(label=_("Promo tiles (Volcano, Beaver Dam)"), required=False)
    start_token = forms.CharField(widget=forms.HiddenInput, max_length=32, required=False, initial=new_token)
    """This form's own token: posted twice, it starts one game (:func:`scoring.creation.start_game`)."""

    def __init__(self, *args: Any, known: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.known = {name_key(name): name for name in known}
        for number in range(1, MAX_PLAYERS + 1):
            self.fields[f"seat_{number}"].widget.attrs.update(list="names", autocomplete="off")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        names = [normal_text(str(data.get(f"seat_{n}") or "")) for n in range(1, MAX_PLAYERS + 1)]
        # A name typed as a known player's name in another case or form is that player.
        names = [self.known.get(name_key(name), name) for name in names if name]
        try:
            data["players"] = parse_players(list(names))
        except RecordError as error:
            raise forms.ValidationError(say(error.message)) from error
        looks = new_players_problem(names, self.known.values())
        if looks is not None:
            raise forms.ValidationError(looks)
        return data


class SupplyForm(forms.Form):
    """The reward tokens of each kind and the gold nugget cards in the box, as the record's options: the
    printed counts unless the table plays with fewer or more. Blank is the printed count; the bounds are
    what the record format accepts."""

    reward_supply = forms.IntegerField(
        label=_("Reward tokens of each kind"),
        min_value=REWARD_SUPPLY_RANGE[0],
        max_value=REWARD_SUPPLY_RANGE[-1],
        required=False,
    )
    nugget_supply = forms.IntegerField(
        label=_("Gold nugget cards"),
        min_value=NUGGET_SUPPLY_RANGE[0],
        max_value=NUGGET_SUPPLY_RANGE[-1],
        required=False,
    )

    def __init__(self, data: Any = None) -> None:
        self.printed = {"reward_supply": Options().reward_supply, "nugget_supply": Options().nugget_supply}
        super().__init__(data, initial=self.printed)
        for name, count in self.printed.items():
            self.fields[name].help_text = _("As printed: %(count)d.") % {"count": count}
            self.fields[name].widget.attrs.update(inputmode="numeric")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name, count in self.printed.items():
            if name in data and data[name] is None:
                data[name] = count
        return data


class ImportForm(forms.Form):
    """A record file (``okanagan-record/1``) to add to a group."""

    record = forms.FileField(label=_("Record or score sheet (JSON)"))
    finished = forms.BooleanField(label=_("The game is over"), required=False, initial=True)

    def clean_record(self) -> dict[str, Any]:
        upload = self.cleaned_data["record"]
        if upload.size > MAX_RECORD_BYTES:
            raise forms.ValidationError(_("The file is too big (at most 1 MB)."))
        data = read_upload(upload)
        try:
            score_document(data)
        except RulesError as error:
            raise forms.ValidationError(
                _("This record is not valid: %(error)s"), params={"error": error_text(error)}
            ) from error
        if not isinstance(data, dict):  # score_document accepted it, so it is an object
            raise forms.ValidationError(_("This record is not valid."))
        return data


def read_upload(upload: UploadedFile[bytes]) -> object:
    """An uploaded JSON file, read by ``rules`` (see :func:`rules.read_json`), or a ``ValidationError``."""
    try:
        return read_json(upload.read())
    except RulesError as error:
        raise forms.ValidationError(
            _("This is not a JSON file: %(error)s"), params={"error": say(error.message)}
        ) from error


class PlaysImportForm(forms.Form):
    """A BG Stats play file (``.bgsplay``) of old plays to bring into a group."""

    plays = forms.FileField(label=_("BG Stats play file (.bgsplay)"))

    def clean_plays(self) -> object:
        upload = self.cleaned_data["plays"]
        if upload.size > MAX_PLAYS_BYTES:
            raise forms.ValidationError(_("The file is too big (at most 5 MB)."))
        try:
            return read_upload(upload)
        except forms.ValidationError as error:  # the JSON parser's words mean nothing to a player: say what to do
            raise forms.ValidationError(
                _(
                    "This file cannot be read as a BG Stats play file (.bgsplay): it is damaged or cut short. "
                    "Export the plays from BG Stats again and choose the new file."
                )
            ) from error


class JoinForm(forms.Form):
    """The short code shown at the table."""

    code = forms.CharField(label=_("Table code"), max_length=20)

    def clean_code(self) -> str:
        code = "".join(str(self.cleaned_data["code"]).split()).upper()
        if len(code) != CODE_LENGTH or any(char not in CODE_ALPHABET for char in code):
            raise forms.ValidationError(
                _("A table code is %(length)d letters and digits, like K7PX2Q."), params={"length": CODE_LENGTH}
            )
        return code


class RestoreForm(forms.Form):
    """A group's backup file, to restore as a new group."""

    backup = forms.FileField(label=_("Backup file (JSON)"))

    def clean_backup(self) -> object:
        upload = self.cleaned_data["backup"]
        if upload.size > MAX_BACKUP_BYTES:
            raise forms.ValidationError(_("The file is too big (at most 5 MB)."))
        return read_upload(upload)
