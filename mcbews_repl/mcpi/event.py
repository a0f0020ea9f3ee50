"""mcpi's events: ``BlockEvent`` (a block hit), ``ChatEvent`` (a chat post) and
``ProjectileEvent`` (a projectile's hit, which no Bedrock event reaches the facade with yet)."""

from __future__ import annotations

from .vec3 import Vec3

__all__ = ["BlockEvent", "ChatEvent", "ProjectileEvent"]


class BlockEvent:
    """A block was hit: ``pos`` (a ``Vec3``), ``face`` (0 below, 1 above, 2 north, 3 south,
    4 west, 5 east, as mcpi numbers them) and ``entityId`` (who hit it)."""

    HIT = 0

    def __init__(self, type: int, x: int, y: int, z: int, face: int, entityId: int) -> None:
        self.type = type
        self.pos = Vec3(x, y, z)
        self.face = face
        self.entityId = entityId

    def __repr__(self) -> str:
        kind = "BlockEvent.HIT" if self.type == BlockEvent.HIT else "???"
        p = self.pos
        return f"BlockEvent({kind}, {p.x}, {p.y}, {p.z}, {self.face}, {self.entityId})"

    @staticmethod
    def Hit(x: int, y: int, z: int, face: int, entityId: int) -> BlockEvent:
        """A hit at (x, y, z) on ``face`` by ``entityId``."""
        return BlockEvent(BlockEvent.HIT, x, y, z, face, entityId)


class ChatEvent:
    """A chat post: ``entityId`` (who wrote it) and ``message``."""

    POST = 0

    def __init__(self, type: int, entityId: int, message: str) -> None:
        self.type = type
        self.entityId = entityId
        self.message = message

    def __repr__(self) -> str:
        kind = "ChatEvent.POST" if self.type == ChatEvent.POST else "???"
        return f"ChatEvent({kind}, {self.entityId}, {self.message})"

    @staticmethod
    def Post(entityId: int, message: str) -> ChatEvent:
        """A post of ``message`` by ``entityId``."""
        return ChatEvent(ChatEvent.POST, entityId, message)


class ProjectileEvent:
    """A projectile hit a block: ``pos``, ``face``, and the names of who shot it
    (``originName``) and what it hit (``targetName``), as mcpi 1.2.1 has it."""

    HIT = 0

    def __init__(
        self, type: int, x: int, y: int, z: int, face: int, originName: str, targetName: str
    ) -> None:
        self.type = type
        self.pos = Vec3(x, y, z)
        self.face = face
        self.originName = originName
        self.targetName = targetName

    def __repr__(self) -> str:
        kind = "ProjectileEvent.HIT" if self.type == ProjectileEvent.HIT else "???"
        p = self.pos
        return (
            f"ProjectileEvent({kind}, {p.x}, {p.y}, {p.z}, {self.face}, {self.originName}, "
            f"{self.targetName})"
        )

    @staticmethod
    def Hit(x: int, y: int, z: int, face: int, originName: str, targetName: str) -> ProjectileEvent:
        """A hit at (x, y, z) on ``face``, shot by ``originName`` at ``targetName``."""
        return ProjectileEvent(ProjectileEvent.HIT, x, y, z, face, originName, targetName)
