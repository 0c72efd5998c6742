"""Runs AWS CLI commands with the real CLI's parser and botocore's parameter validation, answering each API call
with a canned response instead of calling AWS (test/support/aws-cli.ts drives it; botocore's own Stubber answers
calls the same way, through the `before-call` event).

Reads a JSON list of jobs, each {"argv": [...], "responses": {"OperationName": {...}}}, from the file named by the
first argument and writes, to the file named by the second, one result per job: the exit code, what the CLI printed,
and each API call it made (service, operation, parameters). A response {"Error": {...}} answers with that error; a
value {"$stream": "text"} becomes a streaming body.
"""
import argparse
import contextlib
import io
import json
import sys

# argparse takes an unambiguous prefix of an option for the option (`--nam` for `--name`): the runbook must spell
# every option in full, so no prefix is taken.
argparse.ArgumentParser._get_option_tuples = lambda self, option_string: []

import botocore.session  # noqa: E402
from awscli.clidriver import CLIDriver, EnvironmentVariables, _set_user_agent_for_session, load_plugins  # noqa: E402
from botocore.awsrequest import AWSResponse  # noqa: E402
from botocore.response import StreamingBody  # noqa: E402


def revive(value):
    if isinstance(value, dict):
        if set(value) == {'$stream'}:
            data = value['$stream'].encode()
            return StreamingBody(io.BytesIO(data), len(data))
        return {k: revive(v) for k, v in value.items()}
    if isinstance(value, list):
        return [revive(v) for v in value]
    return value


LOADER = []


def create_clidriver():
    """awscli.clidriver.create_clidriver, each driver with a session of its own (a command's global options, such
    as --region and --output, stay in its session) but one loader of the service models for all: most of a
    command's time here is reading the models."""
    session = botocore.session.Session(EnvironmentVariables)
    if LOADER:
        session.register_component('data_loader', LOADER[0])
    else:
        LOADER.append(session.get_component('data_loader'))
    _set_user_agent_for_session(session)
    load_plugins(session.full_config.get('plugins', {}), event_hooks=session.get_component('event_emitter'))
    return CLIDriver(session=session)


def run(job):
    calls = []
    responses = job.get('responses', {})
    driver = create_clidriver()

    def record(params, model, **kwargs):
        calls.append({'service': model.service_model.service_name, 'operation': model.name, 'params': params})

    def answer(model, **kwargs):
        parsed = revive(responses.get(model.name, {}))
        status = 400 if 'Error' in parsed else 200
        parsed.setdefault('ResponseMetadata', {'HTTPStatusCode': status})
        return AWSResponse('https://stub.invalid', status, {}, None), parsed

    driver.session.register('before-parameter-build', record)
    driver.session.register('before-call', answer)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = driver.main(job['argv'])
        except SystemExit as exit:
            code = exit.code
    return {'code': code, 'stdout': out.getvalue(), 'stderr': err.getvalue(), 'calls': calls}


def jsonable(value):
    if isinstance(value, bytes):
        return value.decode('utf-8', 'replace')
    return repr(value)


with open(sys.argv[1]) as source:
    jobs = json.load(source)
with open(sys.argv[2], 'w') as target:
    json.dump([run(job) for job in jobs], target, default=jsonable)
