"""Forms of the accounts pages: each field error names the field and the problem."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import UsernameField
from django.utils.translation import gettext_lazy as _


class SignUpForm(forms.Form):
    username = UsernameField(
        label=_("Username"),
        max_length=150,
        help_text=_("Letters, digits and @ . + - _ only; you sign in with it."),
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}),
    )
    email = forms.EmailField(
        label=_("Email"),
        help_text=_("Used only to reset your password."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=_("At least 8 characters, not only digits, not a common password."),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        validator = get_user_model().username_validator
        try:
            validator(username)
        except forms.ValidationError:
            raise forms.ValidationError(
                _("Username: use only letters, digits and @ . + - _."), code="invalid"
            ) from None
        if get_user_model().objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(
                _("The username “%(name)s” is taken; choose another."),
                code="taken",
                params={"name": username},
            )
        return username

    def clean_email(self) -> str:
        email: str = self.cleaned_data["email"].strip()
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                _("An account with this email exists; sign in or reset its password."),
                code="taken",
            )
        return email

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        first, second = data.get("password1"), data.get("password2")
        if first and second and first != second:
            self.add_error("password2", _("The two passwords differ; type the same one twice."))
        elif first:
            user = get_user_model()(username=data.get("username", ""), email=data.get("email", ""))
            try:
                password_validation.validate_password(first, user)
            except forms.ValidationError as error:
                self.add_error("password1", error)
        return data


class ClaimForm(forms.Form):
    code = forms.CharField(
        label=_("Claim code"),
        max_length=24,
        help_text=_("The code on your invitation from the tournament director."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none"}),
    )

    def clean_code(self) -> str:
        code: str = self.cleaned_data["code"]
        return code.strip()
