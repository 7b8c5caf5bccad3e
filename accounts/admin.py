from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from accounts.models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (*BaseUserAdmin.fieldsets, ("Arbiter", {"fields": ("display_name",)}))
    list_display = ("username", "display_name", "email", "is_staff", "is_active", "last_login")
    search_fields = ("username", "display_name", "email", "first_name", "last_name")
