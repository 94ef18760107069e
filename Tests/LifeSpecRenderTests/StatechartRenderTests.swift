import Foundation
import LifecycleEngine
import LifeSpec
@testable import LifeSpecRender
import Testing

@Suite struct StatechartRenderTests {
    @Test func drawsPNGForLooking() throws {
        guard let directory = ProcessInfo.processInfo.environment["LIFESPEC_LOOK"] else { return }
        let spec = try StatechartFixture.spec()
        for detail in [DiagramOptions.Detail.states, .events, .full] {
            var options = DiagramOptions()
            options.detail = detail
            let dot = try DiagramBuilder.build(for: spec, options: options).dot
            try dot.write(toFile: directory + "/player-\(detail).dot", atomically: true, encoding: .utf8)
            let png = try GraphvizRenderer.shared.render(dot: dot, format: .png)
            try Data(png).write(to: URL(fileURLWithPath: directory + "/player-\(detail).png"))
        }
        try MermaidRenderer.render(spec, options: DiagramOptions()).write(toFile: directory + "/player.mmd", atomically: true, encoding: .utf8)
    }
}
