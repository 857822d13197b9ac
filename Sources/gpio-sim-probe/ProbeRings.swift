/// Three rings' values and the selected ring, changed by input actions the way the app will:
/// enough to show in the QEMU test that a press or a turn on a real GPIO chip reaches the rings.
struct ProbeRings {
    var names = ["move", "exercise", "stand"]
    var values: [Double] = [0.5, 0.5, 0.5]
    var selected = 0
    let stepSize = 0.05

    mutating func apply(_ action: String) {
        switch action {
        case "resetAll": values = values.map { _ in 0 }
        case "selectNext": selected = (selected + 1) % names.count
        case "step(1)": values[selected] = min(values[selected] + stepSize, 100)
        case "step(-1)": values[selected] = max(values[selected] - stepSize, 0)
        default: break  // longPress: the app's configured action; the probe only reports it
        }
    }

    var description: String {
        let parts = names.indices.map { index -> String in
            let hundredths = Int((values[index] * 100).rounded())
            return "\(names[index])=\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
        }
        return parts.joined(separator: " ") + " selected=\(names[selected])"
    }
}
