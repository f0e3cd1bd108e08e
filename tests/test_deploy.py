"""The deployment files say what the README says: the systemd template gives each instance its own environment
file (so two shards on one machine get two health ports), and docker-compose.yml lets Prometheus scrape
every shard over the compose network only, with an opt-in restart of unhealthy containers."""

from __future__ import annotations

import fnmatch
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.settings import Settings, load_settings
from bot.testing.world import FAKE_TOKEN

ROOT = Path(__file__).resolve().parents[1]
SETTING_NAMES = frozenset(name.upper() for name in Settings.model_fields)


def unit(path: Path) -> dict[str, list[tuple[str, str]]]:
    """A systemd unit file: each section's (key, value) lines in order (keys may repeat)."""
    sections: dict[str, list[tuple[str, str]]] = {}
    current = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1]
            sections.setdefault(current, [])
            continue
        key, _, value = line.partition("=")
        sections[current].append((key.strip(), value.strip()))
    return sections


def values(section: list[tuple[str, str]], key: str) -> list[str]:
    return [v for k, v in section if k == key]


def env_file(text: str) -> dict[str, str]:
    """An EnvironmentFile's KEY=value lines."""
    pairs = (line.split("=", 1) for line in text.splitlines() if "=" in line and not line.startswith("#"))
    return {k.strip(): v.strip() for k, v in pairs}


TEMPLATE = ROOT / "deploy" / "tessera@.service"


def test_each_systemd_instance_reads_the_shared_then_its_own_environment_file() -> None:
    service = unit(TEMPLATE)["Service"]
    # Later files win: the instance's own file (optional, "-") overrides the shared one.
    assert values(service, "EnvironmentFile") == ["/etc/tessera/tessera.env", "-/etc/tessera/%i.env"]
    (start,) = values(service, "ExecStart")
    assert start.startswith("/usr/bin/env SHARD_IDS=%i "), "the instance is the shard, whatever the files say"
    assert values(service, "Restart") == ["on-failure"]
    assert values(service, "RestartPreventExitStatus") == ["2"]
    # the web board's connections must not run out of descriptors at systemd's default of 1,024
    assert int(values(service, "LimitNOFILE")[0]) >= 16384


def test_two_instances_as_documented_listen_on_two_health_ports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Build each instance's environment the way systemd does from the template and the files its comment
    prescribes (the shared file with HEALTH_PORT, one file per instance), then read the settings."""
    text = TEMPLATE.read_text(encoding="utf-8")
    documented = dict(re.findall(r"/etc/tessera/(\d+)\.env (?:holds )?HEALTH_PORT=(\d+)", text))
    assert documented == {"0": "8080", "1": "8081"}, "the unit's comment gives each instance its own port"
    files = {
        "/etc/tessera/tessera.env": "DATABASE_URL=postgresql://tessera@db/tessera\nSHARD_COUNT=2\nHEALTH_PORT=8080\n",
        **{f"/etc/tessera/{i}.env": f"HEALTH_PORT={port}\n" for i, port in documented.items()},
    }
    service = unit(TEMPLATE)["Service"]
    monkeypatch.chdir(tmp_path)
    seen = {}
    for instance in ("0", "1"):
        environment: dict[str, str] = {}
        for name in values(service, "EnvironmentFile"):
            path = name.removeprefix("-").replace("%i", instance)
            if path in files:
                environment.update(env_file(files[path]))
            else:
                assert name.startswith("-"), f"{path} is required but missing"
        (start,) = values(service, "ExecStart")
        for word in start.split()[1:]:  # /usr/bin/env's NAME=value words
            if "=" in word:
                key, value = word.split("=", 1)
                environment[key] = value
        environment = {k: v.replace("%i", instance) for k, v in environment.items()}
        for name in SETTING_NAMES:
            monkeypatch.delenv(name, raising=False)
        for key, value in {**environment, "DISCORD_TOKEN": FAKE_TOKEN}.items():
            monkeypatch.setenv(key, value)
        settings = load_settings()
        assert settings.shards is not None and settings.shards.ids == {int(instance)}
        seen[instance] = settings.health_port
    assert seen == {"0": 8080, "1": 8081}


def compose() -> dict[str, Any]:
    loaded = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def shards(services: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {name: spec for name, spec in services.items() if name.startswith("shard-")}


def test_compose_shards_listen_on_the_compose_network_only_and_prometheus_scrapes_each() -> None:
    services = compose()["services"]
    running = shards(services)
    count = {int(spec["environment"]["SHARD_COUNT"]) for spec in running.values()}
    assert len(count) == 1 and sorted(int(s["environment"]["SHARD_IDS"]) for s in running.values()) == list(
        range(count.pop())
    )
    ports = set()
    for name, spec in running.items():
        environment = spec["environment"]
        assert environment["HEALTH_HOST"] == "0.0.0.0", f"{name}: Prometheus must reach it in the network"
        assert "ports" not in spec, f"{name} publishes no port: its metrics stay inside the compose network"
        assert spec["restart"] == "unless-stopped"
        ports.add(environment["HEALTH_PORT"])
    prometheus = services["prometheus"]
    assert prometheus["profiles"] == ["metrics"]
    assert all(p.startswith("127.0.0.1:") for p in prometheus["ports"]), "Prometheus on this machine only"
    mounts = {m.split(":")[0]: m.split(":")[1] for m in prometheus["volumes"]}
    assert mounts["./deploy/prometheus.yml"] == "/etc/prometheus/prometheus.yml"
    config = yaml.safe_load((ROOT / "deploy" / "prometheus.yml").read_text(encoding="utf-8"))
    (job,) = config["scrape_configs"]
    assert job["metrics_path"] == "/metrics"
    targets = {t for group in job["static_configs"] for t in group["targets"]}
    assert targets == {f"{name}:{port}" for name in running for port in ports}


def test_compose_can_restart_unhealthy_shards_when_asked() -> None:
    services = compose()["services"]
    autoheal = services["autoheal"]
    assert autoheal["profiles"] == ["autoheal"], "opt-in: it needs the Docker socket"
    label = autoheal["environment"]["AUTOHEAL_CONTAINER_LABEL"]
    for name, spec in shards(services).items():
        assert spec["labels"][label] == "true", f"{name} is restarted when unhealthy"
    assert "/var/run/docker.sock:/var/run/docker.sock" in autoheal["volumes"]


def dockerfile() -> list[str]:
    """The Dockerfile's instructions, continuation lines joined, comments left out."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    return [" ".join(i.split()) for i in "\n".join(lines).replace("\\\n", " ").splitlines() if i.strip()]


def test_the_image_installs_dependencies_in_a_layer_the_code_does_not_touch(tmp_path: Path) -> None:
    steps = dockerfile()
    copies = [n for n, step in enumerate(steps) if step.startswith("COPY ")]
    assert steps[copies[0]] == "COPY pyproject.toml ./", "only the dependency list before the dependencies"
    dependencies = copies[0] + 1
    assert (
        steps[dependencies].startswith("RUN ")
        and "pip install -r /tmp/requirements.txt" in steps[dependencies]
    )
    code = {steps[n].split()[1] for n in copies[1:]}
    assert {"games", "bot", "cogs", "renderer", "README.md"} <= code
    assert all(n > dependencies for n in copies[1:])
    (install,) = [s for s in steps if "pip install" in s and "requirements" not in s]
    assert "pip install --no-deps ." in install, "installing the project leaves the dependency layer alone"
    # The dependency command, run here on the real pyproject.toml, lists exactly the project's dependencies.
    command = steps[dependencies].removeprefix("RUN ").split(" > /tmp/requirements.txt")[0]
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    listed = subprocess.run(
        command.replace("python -c", f"{sys.executable} -c", 1),
        shell=True,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\n")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert [line for line in listed if line] == project["dependencies"]


def test_the_image_has_a_debian_font_for_every_script_and_pip_ships_none() -> None:
    from renderer.fonts import FONT_DIRS, STANDARD_FONTS

    (apt,) = [s for s in dockerfile() if "apt-get install" in s]
    packages = set(apt.split("apt-get install", 1)[1].split("&&")[0].split())
    excluded = re.findall(r"path-exclude (\S+?)'", apt)
    assert excluded, "the unused Noto CJK files are left out"
    for label, _ in STANDARD_FONTS:
        wanted = set(re.findall(r"fonts-[a-z-]+", label))
        assert wanted & packages, f"no package of the image draws {label}"
    noto = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
    assert not any(fnmatch.fnmatch(noto, pattern) for pattern in excluded), "the font in use is kept"
    cjk_files = next(names for label, names in STANDARD_FONTS if "fonts-noto-cjk" in label)
    assert noto.startswith(FONT_DIRS[0]) and cjk_files[0] == Path(noto).name, "Noto first for CJK"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert not [d for d in project["dependencies"] if "noto" in d], "fonts come from Debian, not pip"
