#!/bin/sh
{marker}{hook}
# Installed by "specdev hook install {hook}"; "specdev hook uninstall {hook}" removes it
# and puts back the hook it chains, if there is one.
{runs}specdev {command}
{keep}
chained="$(dirname -- "$0")/{hook}{chain}"
if [ -x "$chained" ]; then
	{feed}"$chained" "$@" || exit $?
fi

installed={installed}
specdev="$installed"
if [ ! -x "$specdev" ]; then
	specdev=$(command -v specdev) || {
		echo "specdev hook {hook}: specdev is neither at $installed nor on PATH." >&2
		echo "Install it, or remove this hook: specdev hook uninstall {hook}" >&2
		echo "To {verb} without the review gate, knowingly: {bypass}" >&2
		exit 1
	}
fi
{feed}"$specdev" {command} && exit 0
status=$?
echo >&2
echo "specdev hook {hook}: the review gate blocked this {verb} (exit $status); see above." >&2
echo "To {verb} without it, knowingly: {bypass}" >&2
exit $status
