"""Load, validate and draw a LifeSpec spec with the Python peers users pick today.

    python peers.py PEER STEP SPEC.yaml

PEER is sismic, statemachine (python-statemachine) or transitions. STEP is build (load and
validate the machine), dot (write DOT text to stdout's sink), svg (render SVG, which each peer
does by spawning Graphviz's dot) or markdown (python-statemachine's Markdown transition table,
`format(machine, "md")`). The spec is converted to each peer's own model first; that
conversion is part of what is timed, as it is the work a user of the peer would do by hand.
"""
import sys

import yaml


def leaves(states, parent=None, out=None):
    """(id, parent, children) for every state, parents first."""
    out = [] if out is None else out
    for sid, body in (states or {}).items():
        body = body or {}
        children = body.get("states") or {}
        out.append((sid, parent, list(children), body.get("initial")))
        leaves(children, sid, out)
    return out


def load(path):
    with open(path, encoding="utf-8") as handle:
        return yaml.safe_load(handle)


def leaf_of(state, table):
    node = table[state]
    while node[2]:
        node = table[node[3]]
    return node[0]


def flat(spec):
    """Leaf states and (source leaf, event, target leaf, guard) edges: what flat peers model."""
    states = leaves(spec["states"])
    table = {s[0]: s for s in states}
    leaf_ids = [s[0] for s in states if not s[2]]
    descendants = {}
    for sid, parent, _, _ in states:
        p = parent
        while p is not None:
            descendants.setdefault(p, []).append(sid)
            p = table[p][1]
    edges = []
    for t in spec.get("transitions", []):
        sources = t["from"] if isinstance(t["from"], list) else [t["from"]]
        event = t.get("on") or "always"
        for source in sources:
            for leaf in ([source] if not table[source][2] else [d for d in descendants[source] if not table[d][2]]):
                target = leaf_of(t["to"], table) if t.get("to") else leaf
                edges.append((leaf, event, target, t.get("guard")))
    return leaf_ids, edges, leaf_of(spec["initial"], table)


def run_transitions(spec, step):
    leaf_ids, edges, initial = flat(spec)
    transitions = [
        {"trigger": event, "source": src, "dest": dst, **({"conditions": [lambda: True]} if guard else {})}
        for src, event, dst, guard in edges
    ]
    if step == "build":
        from transitions import Machine

        Machine(states=leaf_ids, transitions=transitions, initial=initial, auto_transitions=False)
        return
    from transitions.extensions import GraphMachine

    machine = GraphMachine(states=leaf_ids, transitions=transitions, initial=initial, auto_transitions=False)
    graph = machine.get_graph()
    if step == "dot":
        sink(graph.source)
    else:
        sink(graph.pipe(format="svg"))


def run_statemachine(spec, step):
    from statemachine import State, StateMachine

    leaf_ids, edges, initial = flat(spec)
    states = {sid: State(sid, initial=(sid == initial)) for sid in leaf_ids}
    attributes = dict(states)
    events = {}
    for src, event, dst, _guard in edges:
        transition = states[src].to(states[dst]) if src != dst else states[src].to.itself(internal=True)
        events[event] = transition if event not in events else (events[event] | transition)
    attributes.update({f"ev_{name}": value for name, value in events.items()})
    machine_class = type("Synthetic", (StateMachine,), attributes)
    machine = machine_class()
    if step == "build":
        return
    from statemachine.contrib.diagram import DotGraphMachine

    if step == "markdown":
        sink(format(machine, "md"))
        return
    graph = DotGraphMachine(machine)()
    if step == "dot":
        sink(graph.to_string())
    else:
        sink(graph.create_svg())


def run_sismic(spec, step):
    from sismic.io import export_to_plantuml, import_from_yaml

    # Each state's transitions, found once: scanning every transition per state made this
    # adapter quadratic, and the benchmark would have timed our conversion, not sismic.
    by_source = {}
    for t in spec.get("transitions", []):
        for source in t["from"] if isinstance(t["from"], list) else [t["from"]]:
            by_source.setdefault(source, []).append(t)

    def convert(states):
        result = []
        for sid, body in (states or {}).items():
            body = body or {}
            node = {"name": sid}
            if body.get("states"):
                node["initial"] = body["initial"]
                node["states"] = convert(body["states"])
            transitions = []
            for t in by_source.get(sid, []):
                item = {}
                if t.get("on"):
                    item["event"] = t["on"]
                if t.get("to"):
                    item["target"] = t["to"]
                if t.get("guard"):
                    item["guard"] = "True"
                transitions.append(item)
            if transitions:
                node["transitions"] = transitions
            result.append(node)
        return result

    document = {"statechart": {"name": spec["id"], "root state": {
        "name": "root", "initial": spec["initial"], "states": convert(spec["states"])}}}
    statechart = import_from_yaml(yaml.safe_dump(document))  # validates on load
    if step == "build":
        return
    # sismic draws through PlantUML, not Graphviz: its text export is the closest step it has.
    sink(export_to_plantuml(statechart))


def sink(data):
    """Consume output without the cost of a terminal."""
    if isinstance(data, str):
        data = data.encode()
    sys.stdout.buffer.write(data[:0])


if __name__ == "__main__":
    peer, step, path = sys.argv[1:4]
    spec = load(path)
    {"transitions": run_transitions, "statemachine": run_statemachine, "sismic": run_sismic}[peer](spec, step)
